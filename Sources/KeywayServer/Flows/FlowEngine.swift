import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging

/// Runs flows: validates input, keeps flow state in the database, sends codes, and completes
/// flows with an authorization code. Knows nothing of HTTP or of the SQL engine.
struct FlowEngine: Sendable {
    let database: any Database
    let clock: any ServerClock
    let limits: FlowLimits
    let hasher: OneTimeCodeHasher
    let sender: any MessageSender
    let logger: Logger

    private var steps: StepBuilder { StepBuilder(limits: limits) }

    // MARK: Starting

    /// Starts a flow and sends its first code.
    func start(configId: String?, request: StartFlowRequest, clientAddress: String? = nil, traceId: String) async throws
        -> Step
    {
        let application = try await application(for: configId)
        var invalid: [InvalidField] = []
        let email = EmailAddress.normalize(request.identifier)
        if email == nil {
            invalid.append(InvalidField(name: "identifier", reason: "Enter a valid email address."))
        }
        if request.codeChallengeMethod != PKCE.method {
            invalid.append(InvalidField(name: "codeChallengeMethod", reason: "Only S256 is supported."))
        }
        if !PKCE.isValidS256Challenge(request.codeChallenge) {
            invalid.append(
                InvalidField(
                    name: "codeChallenge",
                    reason: "Send the base64url SHA-256 of the code verifier (43 characters)."))
        }
        if !invalid.isEmpty { throw FlowProblem.invalidRequest(invalid) }
        guard application.flowTypes.contains(request.flowType) else {
            throw FlowProblem.flowTypeNotEnabled(request.flowType)
        }
        guard let email else { throw FlowProblem.internalError }

        let now = clock.now().epochMilliseconds
        // Counted whether or not a code goes out, so the limits say nothing about the address.
        let rates = limits.rateLimits
        let identifierKey = Self.identifierKey(projectId: application.projectId, identifier: email)
        try await database.write { repositories in
            try await self.consume("start-id", identifierKey, limit: rates.flowStartsPerIdentifier, now: now, in: repositories)
            if let clientAddress {
                try await self.consume(
                    "start-ip", sha256Hex(clientAddress), limit: rates.flowStartsPerAddress, now: now, in: repositories)
            }
            try await self.consume("send-id", identifierKey, limit: rates.codeSendsPerIdentifier, now: now, in: repositories)
        }
        let flowId = SecureRandom.identifier(prefix: "flw")
        let flowToken = SecureRandom.token(prefix: "kft")
        let code = OneTimeCodeHasher.generate(digits: limits.codeLength)
        let user = try await database.read { try await $0.users.find(projectId: application.projectId, email: email) }
        // A code goes out only where it can lead to a sign-in; otherwise the flow looks the same
        // but no code can ever match, so responses do not reveal whether the address is known.
        let deliver = user != nil || application.autoCreateUsers
        let flow = FlowRecord(
            id: flowId, applicationId: application.id, flowType: request.flowType, identifier: email,
            userId: user?.id, state: .awaitingCode, tokenHash: sha256Hex(flowToken),
            codeChallenge: request.codeChallenge,
            otpHash: deliver ? hasher.hash(code: code, flowId: flowId) : nil,
            otpExpiresAt: now + milliseconds(limits.codeLifetime),
            resendAt: now + milliseconds(limits.resendCooldown), resendCount: 0, failedAttempts: 0,
            sessionId: nil, createdAt: now, expiresAt: now + milliseconds(limits.flowLifetime), updatedAt: now)
        try await database.write { try await $0.flows.insert(flow) }
        if deliver {
            do {
                try await send(code: code, to: email)
            } catch {
                try? await database.write { try await $0.flows.delete(id: flowId) }
                throw FlowProblem.deliveryFailed
            }
        }
        logger.info("flow started", metadata: ["flow": "\(flowId)", "type": "\(request.flowType)"])
        return steps.enterCode(flow: flow, flowToken: Sensitive(flowToken), traceId: traceId)
    }

    // MARK: Reading and cancelling

    /// The flow's current step.
    func current(flowId: String, flowToken: String?, configId: String?, traceId: String) async throws -> Step {
        let now = clock.now().epochMilliseconds
        let flow = try await database.read { repositories in
            try await self.authorize(flowId: flowId, flowToken: flowToken, configId: configId, in: repositories)
        }
        try checkOpen(flow, now: now)
        return steps.enterCode(flow: flow, flowToken: nil, traceId: traceId)
    }

    /// Cancels the flow; a finished flow stays as it was.
    func cancel(flowId: String, flowToken: String?, configId: String?) async throws {
        let now = clock.now().epochMilliseconds
        try await database.write { repositories in
            var flow = try await self.authorize(
                flowId: flowId, flowToken: flowToken, configId: configId, in: repositories)
            guard flow.state == .awaitingCode else { return }
            flow.state = .cancelled
            flow.otpHash = nil
            flow.updatedAt = now
            try await repositories.flows.update(flow)
        }
    }

    // MARK: Codes

    /// Checks a code. A right code completes the flow with an authorization code.
    func submitCode(
        flowId: String, flowToken: String?, configId: String?, code rawCode: String, traceId: String
    ) async throws -> Step {
        let code = rawCode.trimmingCharacters(in: .whitespaces)
        guard code.utf8.count == limits.codeLength, code.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "code", reason: "Enter the \(limits.codeLength)-digit code.")
            ])
        }
        let now = clock.now().epochMilliseconds
        let authCode = SecureRandom.token(prefix: "kac")
        let codeExpiresAt = now + milliseconds(limits.authorizationCodeLifetime)
        let outcome: Result<(FlowRecord, String, Bool), FlowProblem> = try await database.write { repositories in
            var flow = try await self.authorize(
                flowId: flowId, flowToken: flowToken, configId: configId, in: repositories)
            if let problem = self.openProblem(flow, now: now) { return .failure(problem) }
            if let expires = flow.otpExpiresAt, now >= expires { return .failure(.codeExpired) }
            guard let application = try await repositories.applications.find(id: flow.applicationId) else {
                return .failure(.flowNotFound)
            }
            try await self.consume(
                "check-id", Self.identifierKey(projectId: application.projectId, identifier: flow.identifier),
                limit: self.limits.rateLimits.codeChecksPerIdentifier, now: now, in: repositories)
            let matches = flow.otpHash.map { self.hasher.verify(code: code, flowId: flow.id, storedHash: $0) } ?? false
            guard matches else {
                flow.failedAttempts += 1
                flow.updatedAt = now
                let remaining = self.limits.maxCodeAttempts - flow.failedAttempts
                if remaining <= 0 {
                    flow.state = .failed
                    flow.otpHash = nil
                }
                try await repositories.flows.update(flow)
                return .failure(remaining <= 0 ? .tooManyAttempts : .invalidCode(attemptsRemaining: remaining))
            }
            // The code is right: find or create the user, open a session, issue the code.
            let userId: String
            var created = false
            if let existing = flow.userId {
                userId = existing
                try await repositories.users.markEmailVerified(id: existing)
            } else if let existing = try await repositories.users.find(
                projectId: application.projectId, email: flow.identifier)
            {
                userId = existing.id
                try await repositories.users.markEmailVerified(id: existing.id)
            } else {
                userId = SecureRandom.identifier(prefix: "usr")
                created = true
                try await repositories.users.insert(
                    UserRecord(
                        id: userId, projectId: application.projectId, email: flow.identifier, emailVerified: true,
                        createdAt: now))
            }
            let sessionId = SecureRandom.identifier(prefix: "ses")
            try await repositories.sessions.insert(
                SessionRecord(
                    id: sessionId, userId: userId, applicationId: application.id, amr: ["otp"], authTime: now,
                    createdAt: now, revokedAt: nil))
            try await repositories.authorizationCodes.insert(
                AuthorizationCodeRecord(
                    codeHash: sha256Hex(authCode), applicationId: application.id, userId: userId,
                    sessionId: sessionId, flowId: flow.id, codeChallenge: flow.codeChallenge,
                    expiresAt: codeExpiresAt, usedAt: nil, createdAt: now))
            flow.userId = userId
            flow.state = .completed
            flow.otpHash = nil
            flow.sessionId = sessionId
            flow.updatedAt = now
            try await repositories.flows.update(flow)
            return .success((flow, sessionId, created))
        }
        let (flow, sessionId, created) = try outcome.get()
        logger.info("flow completed", metadata: ["flow": "\(flow.id)", "session": "\(sessionId)"])
        return steps.completed(
            flow: flow, authCode: authCode, codeExpiresAt: Date(epochMilliseconds: codeExpiresAt),
            sessionId: sessionId, newUser: created, traceId: traceId)
    }

    /// Sends a new code once the cooldown has passed.
    func resend(flowId: String, flowToken: String?, configId: String?, traceId: String) async throws -> Step {
        let now = clock.now().epochMilliseconds
        let code = OneTimeCodeHasher.generate(digits: limits.codeLength)
        let outcome: Result<(FlowRecord, Bool), FlowProblem> = try await database.write { repositories in
            var flow = try await self.authorize(
                flowId: flowId, flowToken: flowToken, configId: configId, in: repositories)
            if let problem = self.openProblem(flow, now: now) { return .failure(problem) }
            if let resendAt = flow.resendAt, now < resendAt {
                return .failure(
                    .resendCooldown(until: Date(epochMilliseconds: resendAt), now: Date(epochMilliseconds: now)))
            }
            guard flow.resendCount < self.limits.maxResends else { return .failure(.resendLimitReached) }
            guard let application = try await repositories.applications.find(id: flow.applicationId) else {
                return .failure(.flowNotFound)
            }
            try await self.consume(
                "send-id", Self.identifierKey(projectId: application.projectId, identifier: flow.identifier),
                limit: self.limits.rateLimits.codeSendsPerIdentifier, now: now, in: repositories)
            let deliver = flow.userId != nil || application.autoCreateUsers
            flow.otpHash = deliver ? self.hasher.hash(code: code, flowId: flow.id) : nil
            flow.otpExpiresAt = now + self.milliseconds(self.limits.codeLifetime)
            flow.resendAt = now + self.milliseconds(self.limits.resendCooldown)
            flow.resendCount += 1
            flow.updatedAt = now
            try await repositories.flows.update(flow)
            return .success((flow, deliver))
        }
        let (flow, deliver) = try outcome.get()
        if deliver {
            do {
                try await send(code: code, to: flow.identifier)
            } catch {
                throw FlowProblem.deliveryFailed
            }
        }
        return steps.enterCode(flow: flow, flowToken: nil, traceId: traceId)
    }

    // MARK: Helpers

    /// The counter key of an identifier: a hash of the project and the normalized identifier.
    private static func identifierKey(projectId: String, identifier: String) -> String {
        sha256Hex("\(projectId)\u{0}\(identifier)")
    }

    /// Counts one attempt of `kind` for `key`; over `limit` in the window, refuses with `wait`
    /// (the refused attempt is not kept: the transaction rolls back).
    private func consume(_ kind: String, _ key: String, limit: Int, now: Int64, in repositories: Repositories)
        async throws
    {
        guard limit > 0 else { return }
        let window = milliseconds(limits.rateLimits.window)
        let (hits, windowStart) = try await repositories.rateLimits.hit(bucket: "\(kind):\(key)", now: now, window: window)
        if hits > Int64(limit) {
            logger.notice("rate limit reached", metadata: ["limit": "\(kind)"])
            throw FlowProblem.rateLimited(until: windowStart + window, now: now)
        }
    }

    private func application(for configId: String?) async throws -> ApplicationRecord {
        guard let configId, !configId.isEmpty else { throw FlowProblem.missingConfigId }
        guard let application = try await database.read({ try await $0.applications.find(configId: configId) })
        else { throw FlowProblem.unknownConfigId }
        return application
    }

    /// Loads the flow and checks that the token and config ID belong to it. Every mismatch
    /// answers "not found", so a guessed flow ID reveals nothing.
    private func authorize(
        flowId: String, flowToken: String?, configId: String?, in repositories: Repositories
    ) async throws -> FlowRecord {
        guard let configId, !configId.isEmpty else { throw FlowProblem.missingConfigId }
        guard let flowToken, let flow = try await repositories.flows.find(id: flowId),
            ConstantTime.equals(sha256Hex(flowToken), flow.tokenHash)
        else { throw FlowProblem.flowNotFound }
        guard let application = try await repositories.applications.find(id: flow.applicationId),
            application.configId == configId
        else { throw FlowProblem.flowNotFound }
        return flow
    }

    private func openProblem(_ flow: FlowRecord, now: Int64) -> FlowProblem? {
        switch flow.state {
        case .awaitingCode: now >= flow.expiresAt ? .flowExpired : nil
        case .failed: .tooManyAttempts
        case .completed, .cancelled: .flowClosed
        }
    }

    private func checkOpen(_ flow: FlowRecord, now: Int64) throws {
        if let problem = openProblem(flow, now: now) { throw problem }
    }

    private func send(code: String, to email: String) async throws {
        let minutes = Int(limits.codeLifetime / 60)
        let text = MessageTemplates.signInCode(code, minutes: minutes)
        try await sender.send(
            OutgoingMessage(channel: .email, to: email, code: Sensitive(code), subject: text.subject, body: text.body))
    }

    private func milliseconds(_ interval: TimeInterval) -> Int64 {
        Int64((interval * 1000).rounded())
    }
}
