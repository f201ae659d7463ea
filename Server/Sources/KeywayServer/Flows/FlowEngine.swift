import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging

/// Runs flows: picks the next step for this user and this application's policy, validates input,
/// keeps flow state in the database, sends codes, and completes flows with an authorization code.
/// Knows nothing of HTTP or of the SQL engine.
///
/// Every request runs in one write transaction that loads the flow, applies the input and writes
/// the flow back; messages go out once it committed. A refused attempt that counts (a wrong code
/// or password) is written with the refusal; a rate-limited one rolls back.
struct FlowEngine: Sendable {
    let database: any Database
    let clock: any ServerClock
    let limits: FlowLimits
    let hasher: OneTimeCodeHasher
    /// Delivers the messages flows enqueue in the outbox.
    let delivery: DeliveryWorker
    let directory: any FlowDirectory
    let secrets: SecretBox
    let logger: Logger
    /// The server's issuer URL, the audience device signatures bind.
    let issuer: @Sendable () -> String
    /// Counts flows started and completed, and rate-limit refusals.
    let metrics: ServerMetrics
    /// PowerAuth's secrets at rest: account management makes activation codes.
    let powerAuthSecrets: PowerAuthSecrets
    /// What the methods need from the server, by key (password hashing, App Attest, the upstream
    /// providers' caches).
    var dependencies = MethodDependencies()
    /// How long access tokens live: a session without a refresh token is listed that long.
    var accessTokenLifetime: TimeInterval = 15 * 60
    /// The method modules flows use.
    var methods = MethodRegistry.standard

    var steps: StepBuilder { StepBuilder(engine: self) }

    /// Everything a request works on, inside its transaction.
    struct Context: Sendable {
        var flow: FlowRecord
        var progress: FlowProgress
        let application: ApplicationRecord
        let policy: FlowPolicy
        var user: UserRecord?
        let now: Int64
        /// Messages to send once the transaction committed.
        var outgoing: [OutgoingMessage] = []
        /// Set when the flow completed.
        var completion: Completion?
        /// The client's address, hashed, for sessions and risk.
        var addressHash: String?
        /// The client's address, coarsely (approval requests show it).
        var location: String?
        /// The server's issuer URL, which device signatures bind.
        var audience = ""
        /// Events for the project's backend, written to the outbox with the request.
        var events: [DeliveryRequest] = []
        /// Whether the application uses PowerAuth device activation (its credentials exist), so
        /// account management offers a code for another device.
        var usesDeviceActivation = false
        /// The client's name (`User-Agent` or the SDK's client header), when the request gave one.
        var clientName: String?
        /// What the methods read for this request (``MethodDataLoader``), by method.
        var methodData: [FlowMethodID: any Sendable] = [:]
        /// The user's live sessions, for a `manageAccount` step.
        var sessions: [LiveSession] = []

        var identifier: Identifier { Identifier(stored: flow.identifier) }
    }

    /// What a completed flow hands out.
    struct Completion: Sendable {
        let authCode: String
        let expiresAt: Int64
        let sessionId: String
        let newUser: Bool
        /// The device the flow enrolled.
        let trustedDeviceId: String?
        /// The guest who signed in to this account instead of upgrading.
        var guestMerged: GuestMerge? = nil
    }

    // MARK: Starting

    /// The signed-in user an access token names, for an `accountManage` flow.
    struct Account: Sendable {
        var userId: String
        var sessionId: String
        /// The application the access token was issued to.
        var clientId: String
        /// The access token's scope.
        var scope: String
    }

    /// The guest an access token names, for a `signup` flow that upgrades it (or a `signin`
    /// flow that hands it over to the account signed in to).
    struct Guest: Sendable {
        var userId: String
        /// The application the guest's token was issued to.
        var clientId: String
    }

    /// Starts a flow and answers with its first step. `hostedPages` marks a flow the hosted pages
    /// drive: a provider's answer then sends the browser back to them.
    func start(
        configId: String?, request: StartFlowRequest, clientAddress: String? = nil, userAgent: String? = nil,
        account: Account? = nil, guest: Guest? = nil, hostedPages: Bool = false, passkeyChallenge: String? = nil,
        traceId: String
    ) async throws -> Step {
        let application = try await application(for: configId)
        var startRequest = request
        let now = clock.now().epochMilliseconds
        // A start token is only read here; the flow's own transaction uses it, so a request that
        // fails before the flow exists leaves it usable.
        let startToken = request.startToken?.revealed
        if let startToken {
            let claim = try await database.read { repositories in
                try await self.directory.startTokenClaim(startToken, applicationId: application.id, now: now, in: repositories)
            }
            guard let claim else { throw FlowProblem.invalidStartToken }
            startRequest.flowType = claim.flowType
            startRequest.identifier = claim.identifier
        }
        var invalid: [InvalidField] = []
        let identifier = Identifier(parsing: startRequest.identifier)
        let withPasskey = startRequest.passkey == true
        if withPasskey {
            if startRequest.flowType != .signin {
                invalid.append(InvalidField(name: "passkey", reason: "Only a signin flow starts with a passkey."))
            }
            if !startRequest.identifier.isEmpty {
                invalid.append(
                    InvalidField(name: "identifier", reason: "Send no identifier with passkey: the passkey names the account."))
            }
            if startToken != nil {
                invalid.append(InvalidField(name: "startToken", reason: "A start token cannot start a passkey sign-in."))
            }
        } else if startRequest.flowType != .accountManage, identifier == nil {
            invalid.append(
                InvalidField(
                    name: "identifier", reason: "Enter a valid email address or a phone number in international form (+…)."))
        }
        if startRequest.codeChallengeMethod != PKCE.method {
            invalid.append(InvalidField(name: "codeChallengeMethod", reason: "Only S256 is supported."))
        }
        if !PKCE.isValidS256Challenge(startRequest.codeChallenge) {
            invalid.append(
                InvalidField(
                    name: "codeChallenge",
                    reason: "Send the base64url SHA-256 of the code verifier (43 characters)."))
        }
        for (name, value) in [("nonce", startRequest.nonce), ("state", startRequest.state)] {
            if let value, value.isEmpty || value.utf8.count > AuthorizationRequest.maximumValueLength {
                invalid.append(InvalidField(name: name, reason: "Send 1 to \(AuthorizationRequest.maximumValueLength) bytes."))
            }
        }
        if !invalid.isEmpty { throw FlowProblem.invalidRequest(invalid) }
        var requested = try await authorizationParameters(startRequest, application: application)
        if hostedPages {
            requested = requested ?? FlowProgress.AuthorizationParameters()
            requested?.hostedPages = true
        }
        let authorization = requested
        let policy = try await database.read { try await self.directory.policy(for: application, in: $0) }
        let request = startRequest
        guard policy.flowTypes.contains(request.flowType) else {
            throw FlowProblem.flowTypeNotEnabled(request.flowType)
        }
        if request.flowType == .accountManage {
            guard let account else { throw FlowProblem.invalidAccessToken }
            // A token manages the account only through the application it was issued to.
            guard account.clientId == application.configId else { throw FlowProblem.accessTokenOfAnotherApplication }
            if let startToken {
                let used = try await database.write { repositories in
                    try await self.directory.consumeStartToken(
                        startToken, applicationId: application.id, now: now, in: repositories)
                }
                guard used != nil else { throw FlowProblem.invalidStartToken }
            }
            return try await startManaging(
                application: application, policy: policy, account: account, request: request,
                authorization: authorization, clientAddress: clientAddress, now: now, traceId: traceId)
        }
        if let guest, guest.clientId != application.configId { throw FlowProblem.guestOfAnotherApplication }
        if withPasskey {
            return try await startWithoutIdentifier(
                by: .passkey, application: application, policy: policy, request: request, authorization: authorization,
                clientAddress: clientAddress, userAgent: userAgent, guest: guest, challenge: passkeyChallenge,
                traceId: traceId, now: now)
        }
        guard let identifier else { throw FlowProblem.internalError }

        let flowId = SecureRandom.identifier(prefix: "flw")
        let flowToken = SecureRandom.token(prefix: "kft")
        let rates = limits.rateLimits
        let identifierKey = Self.identifierKey(projectId: application.projectId, identifier: identifier.value)
        let outcome: (Step, [DeliveryMessage]) = try await database.write { repositories in
            if let startToken {
                guard try await self.directory.consumeStartToken(
                    startToken, applicationId: application.id, now: now, in: repositories) != nil
                else { throw FlowProblem.invalidStartToken }
            }
            let user = try await repositories.users.find(projectId: application.projectId, identifier: identifier)
            // Counted whether or not the identifier has an account, so the limits say nothing about it.
            let clientHash = clientAddress.map(ClientAddress.hash)
            try await self.consumeForIdentifier(
                "start-id", identifierKey, clientHash: clientHash, userId: user?.id, limit: rates.flowStartsPerIdentifier,
                now: now, in: repositories)
            if let clientHash {
                try await self.consume("start-ip", clientHash, limit: rates.flowStartsPerAddress, now: now, in: repositories)
            }
            // Signing up a known identifier is a sign-in: never a second account.
            let signsUp = request.flowType == .signup && user == nil
            var progress = FlowProgress(
                mode: signsUp
                    ? .signUp(FlowProgress.SignUpDraft())
                    : .signIn(FlowProgress.SignIn(startedAsSignUp: request.flowType == .signup)),
                stage: .choosing(MethodChoice(options: [], purpose: .primary)))
            progress.authorization = authorization
            if let guest {
                // A sign-in (or a sign-up of a known identifier, once the user chose to sign in)
                // hands the guest over to the account; a sign-up of a new identifier upgrades it.
                progress.guest = FlowProgress.GuestProgress(
                    userId: guest.userId, signsIn: request.flowType == .signin ? true : nil)
            }
            progress.client = Self.client(request, policy: policy, userAgent: userAgent)
            // Checked for every sign-up, of a new identifier or a known one, so the answer does not
            // tell them apart; only a new account redeems the code.
            if request.flowType == .signup, policy.requireInviteCode {
                guard let invite = request.inviteCode?.revealed, !invite.isEmpty else {
                    throw FlowProblem.inviteCodeRequired
                }
                switch try await self.directory.inviteCodeStatus(
                    invite, applicationId: application.id, now: now, in: repositories)
                {
                case .valid:
                    if var draft = progress.signUpDraft {
                        draft.sealedInviteCode = try self.secrets.seal(Array(invite.utf8), purpose: "invite:\(flowId)")
                        progress.signUpDraft = draft
                    }
                case .used: throw FlowProblem.inviteCodeUsed
                case .invalid, .expired: throw FlowProblem.invalidInviteCode
                }
            }
            let flow = FlowRecord(
                id: flowId, applicationId: application.id, flowType: request.flowType, identifier: identifier.value,
                userId: user?.id, state: .awaitingCode, tokenHash: sha256Hex(flowToken),
                codeChallenge: request.codeChallenge, otpHash: nil, otpExpiresAt: nil, resendAt: nil, resendCount: 0,
                failedAttempts: 0, sessionId: nil, createdAt: now, expiresAt: now + self.milliseconds(self.limits.flowLifetime),
                updatedAt: now)
            var context = Context(
                flow: flow, progress: progress, application: application, policy: policy, user: user, now: now,
                addressHash: clientAddress.map(ClientAddress.hash), location: CoarseLocation.of(clientAddress),
                audience: self.issuer())
            try await self.loadFamilies(&context, in: repositories)
            context.clientName = userAgent.map { String($0.prefix(200)) }
            try await self.beginPrimary(&context, in: repositories)
            context.flow.progress = context.progress
            try await repositories.flows.insert(context.flow)
            let messages = try await self.enqueue(context, in: repositories)
            let step = self.steps.step(for: context, flowToken: Sensitive(flowToken), traceId: traceId)
            return (step, messages)
        }
        if try await !deliver(outcome.1) {
            try? await database.write { repositories in
                try await repositories.flows.delete(id: flowId)
                try await repositories.signInLinks.delete(flowId: flowId)
                if let startToken {
                    try await self.directory.releaseStartToken(startToken, usedAt: now, in: repositories)
                }
            }
            throw FlowProblem.deliveryFailed
        }
        logger.info("flow started", metadata: ["flow": "\(flowId)", "type": "\(request.flowType)"])
        metrics.flowStarted(flowType: request.flowType.rawValue)
        return outcome.0
    }

    /// What a new flow knows of its client: the trusted device it names (where the policy has
    /// trusted devices), and the client as its requests name it — what an approval or a sign-in
    /// link opened elsewhere shows ("Is this you signing in on …?").
    static func client(_ request: StartFlowRequest, policy: FlowPolicy, userAgent: String?)
        -> FlowProgress.ClientDescription
    {
        var client = FlowProgress.ClientDescription()
        if policy.devices.enabled, let hint = request.device {
            client.deviceHint = DeviceHint(
                deviceID: hint.deviceID.flatMap { $0.isEmpty || $0.count > 100 ? nil : $0 }, canEnrol: hint.canEnrol)
        }
        client.userAgent = userAgent.map { String($0.prefix(200)) }
        return client
    }

    /// What the client asked of the tokens, checked against the application: the scopes it may
    /// ask for (`invalid_scope`) and the redirect URIs it registered.
    private func authorizationParameters(_ request: StartFlowRequest, application: ApplicationRecord) async throws
        -> FlowProgress.AuthorizationParameters?
    {
        guard request.nonce != nil || request.scope != nil || request.redirectUri != nil || request.state != nil else {
            return nil
        }
        var scope: String?
        if let requested = request.scope {
            switch Scopes.parse(requested, for: application) {
            case .success(let scopes): scope = scopes.joined(separator: " ")
            case .failure(let refusal): throw FlowProblem.invalidScope(refusal.description)
            }
        }
        if let redirectURI = request.redirectUri {
            let registered = try await database.read { try await $0.redirectURIs.uris(.login, applicationId: application.id) }
            guard RedirectURI.matches(redirectURI, registered: registered) else { throw FlowProblem.invalidRedirectURI }
        }
        return FlowProgress.AuthorizationParameters(
            scope: scope, nonce: request.nonce, redirectURI: request.redirectUri, state: request.state)
    }

    // MARK: Reading and cancelling

    /// The flow's current step.
    func current(flowId: String, flowToken: String?, configId: String?, traceId: String) async throws -> Step {
        let now = clock.now().epochMilliseconds
        return try await database.read { repositories in
            let context = try await self.load(
                flowId: flowId, flowToken: flowToken, configId: configId, now: now, in: repositories)
            if let problem = self.openProblem(context.flow, now: now) { throw problem }
            return self.steps.step(for: context, flowToken: nil, traceId: traceId)
        }
    }

    /// Cancels the flow; a finished flow stays as it was.
    func cancel(flowId: String, flowToken: String?, configId: String?) async throws {
        let now = clock.now().epochMilliseconds
        try await database.write { repositories in
            var (flow, _) = try await self.authorize(
                flowId: flowId, flowToken: flowToken, configId: configId, in: repositories)
            guard flow.state == .awaitingCode else { return }
            flow.state = .cancelled
            flow.otpHash = nil
            flow.updatedAt = now
            try await repositories.flows.update(flow)
            if case .method(let active)? = flow.progress?.stage, let module = methods.module(active.method, as: (any StageResourceMethod).self) {
                try await module.cancelled(active, flowId: flow.id, now: now, in: repositories)
            }
        }
    }

    // MARK: The request cycle

    /// Runs one request on an open flow: `body` changes the context and returns a problem to
    /// answer with (after the changes are written) or `nil` to answer with the next step.
    /// Messages go out after the commit; when one cannot be delivered, the flow goes back to
    /// where it was and the request can be repeated.
    func mutate(
        flowId: String, flowToken: String?, configId: String?, clientAddress: String? = nil, traceId: String,
        _ body: @Sendable @escaping (inout Context, Repositories) async throws -> FlowProblem?
    ) async throws -> Step {
        let now = clock.now().epochMilliseconds
        let outcome: (Step?, FlowProblem?, [DeliveryMessage], FlowRecord, Bool, String) = try await database.write {
            repositories in
            var context = try await self.load(
                flowId: flowId, flowToken: flowToken, configId: configId, now: now, in: repositories)
            if let problem = self.openProblem(context.flow, now: now) { return (nil, problem, [], context.flow, false, "") }
            context.addressHash = clientAddress.map(ClientAddress.hash)
            context.location = CoarseLocation.of(clientAddress)
            let before = context.flow
            let problem = try await body(&context, repositories)
            context.flow.progress = context.progress
            context.flow.updatedAt = now
            try await repositories.flows.update(context.flow)
            let messages = try await self.enqueue(context, in: repositories)
            for event in context.events {
                _ = try await repositories.deliveryOutbox.enqueue(event, now: now)
            }
            let hasEvents = !context.events.isEmpty
            // The first method of the sign-in, as RFC 8176 names it, for the completion metric.
            let method = context.progress.amr.first ?? "otp"
            if let problem { return (nil, problem, messages, before, hasEvents, method) }
            return (
                self.steps.step(for: context, flowToken: nil, traceId: traceId), nil, messages, before, hasEvents, method
            )
        }
        let (step, problem, outgoing, before, hasEvents, method) = outcome
        // Events go out through the worker, never holding up the answer.
        if hasEvents { delivery.wake() }
        if try await !deliver(outgoing) {
            // Put the flow back as it was, so the same request can be sent again.
            var copy = before
            copy.updatedAt = now
            let restored = copy
            try? await database.write { try await $0.flows.update(restored) }
            logger.warning("delivery failed", metadata: ["flow": "\(flowId)"])
            throw unavailable(channel: outgoing.first?.channel, before: before)
        }
        if let problem { throw problem }
        guard let step else { throw FlowProblem.internalError }
        if step.kind == .completed {
            logger.info("flow completed", metadata: ["flow": "\(flowId)", "session": "\(step.payload.completed?.session ?? "")"])
            metrics.flowCompleted(flowType: before.flowType.rawValue, method: method)
        }
        return step
    }

    /// The problem for a message that could not go out: choose another method when the step the
    /// flow went back to offers one, else try again.
    private func unavailable(channel: CodeChannel?, before: FlowRecord) -> FlowProblem {
        if channel == .sms, case .choosing(let choice)? = before.progress?.stage,
            choice.options.contains(where: { $0 != .smsOtp })
        {
            return .methodUnavailable
        }
        return .deliveryFailed
    }

    /// Writes the context's messages to the delivery outbox, in the request's transaction, each
    /// claimed for an attempt right after the commit.
    private func enqueue(_ context: Context, in repositories: Repositories) async throws -> [DeliveryMessage] {
        var messages: [DeliveryMessage] = []
        for message in context.outgoing {
            messages.append(
                try await repositories.deliveryOutbox.enqueueClaimed(
                    DeliveryRequest(
                        projectId: context.application.projectId, flowId: context.flow.id, channel: message.channel,
                        recipient: message.to, subject: message.subject, body: Sensitive(message.body),
                        code: message.code, idempotencyKey: SecureRandom.identifier(prefix: "idk")),
                    now: context.now, lease: delivery.leaseMilliseconds))
        }
        return messages
    }

    /// Makes the first attempt at each message right away; a message that fails in a way a retry
    /// may fix stays with the delivery worker, which retries it with backoff while the request
    /// waits (up to ``FlowLimits/deliveryPatience``). `false` when one is still not delivered then:
    /// it is withdrawn (a dead letter, never sent later) and the flow goes back to where it was.
    private func deliver(_ messages: [DeliveryMessage]) async throws -> Bool {
        for message in messages {
            var delivered = await delivery.attemptClaimed(message) == .delivered
            if !delivered {
                delivery.wake()
                let status = try await delivery.awaitSettled(id: message.id, timeout: limits.deliveryPatience)
                delivered = status?.state == .delivered
            }
            guard delivered else {
                let now = clock.now().epochMilliseconds
                try? await database.write { repositories in
                    try await repositories.deliveryOutbox.withdraw(
                        id: message.id, reason: "withdrawn: the flow went back", now: now)
                }
                return false
            }
        }
        return true
    }

    // MARK: Loading

    func load(
        flowId: String, flowToken: String?, configId: String?, now: Int64, in repositories: Repositories
    ) async throws -> Context {
        let (flow, application) = try await authorize(
            flowId: flowId, flowToken: flowToken, configId: configId, in: repositories)
        let policy = try await directory.policy(for: application, in: repositories)
        let user: UserRecord? =
            if let userId = flow.userId { try await repositories.users.find(id: userId) } else { nil }
        // Rows of the first release carry no progress: they were sign-ins at an email code.
        let progress =
            try flow.progress
            ?? FlowProgress(
                mode: .signIn(FlowProgress.SignIn()),
                stage: .method(ActiveMethod(.emailOtp, purpose: .primary, state: CodeStage(destination: flow.identifier))))
        var context = Context(
            flow: flow, progress: progress, application: application, policy: policy, user: user, now: now,
            audience: issuer())
        try await loadFamilies(&context, in: repositories)
        try await loadMethodData(&context, in: repositories)
        if progress.isManage {
            context.usesDeviceActivation = try await repositories.powerAuthApplications.find(applicationId: application.id) != nil
            try await loadSessions(&context, in: repositories)
        }
        return context
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
    ) async throws -> (FlowRecord, ApplicationRecord) {
        guard let configId, !configId.isEmpty else { throw FlowProblem.missingConfigId }
        let found: FlowRecord?
        do {
            found = try await repositories.flows.find(id: flowId)
        } catch let error as UnreadableFlowProgress {
            logger.warning("flow unreadable", metadata: ["flow": "\(flowId)", "reason": "\(error.reason)"])
            throw FlowProblem.flowNotFound
        }
        guard let flowToken, let flow = found, ConstantTime.equals(sha256Hex(flowToken), flow.tokenHash)
        else { throw FlowProblem.flowNotFound }
        if let progress = flow.progress {
            do {
                try methods.check(progress)
            } catch {
                logger.warning("flow unreadable", metadata: ["flow": "\(flowId)", "reason": "\(error.reason)"])
                throw FlowProblem.flowNotFound
            }
        }
        guard let application = try await repositories.applications.find(id: flow.applicationId),
            application.configId == configId
        else { throw FlowProblem.flowNotFound }
        return (flow, application)
    }

    func openProblem(_ flow: FlowRecord, now: Int64) -> FlowProblem? {
        switch flow.state {
        case .awaitingCode: now >= flow.expiresAt ? .flowExpired : nil
        case .failed: .tooManyAttempts
        case .completed, .cancelled: .flowClosed
        }
    }

    // MARK: Limits

    /// The counter key of an identifier: a hash of the project and the normalized identifier.
    static func identifierKey(projectId: String, identifier: String) -> String {
        sha256Hex("\(projectId)\u{0}\(identifier)")
    }

    /// The counter key of the account a flow is for: its user once known — so an account reached
    /// by email and by phone has one budget of guesses, not one per identifier — else the
    /// identifier.
    static func accountKey(_ context: Context) -> String {
        if let user = context.user { return sha256Hex("user\u{0}\(user.id)") }
        return identifierKey(projectId: context.application.projectId, identifier: context.flow.identifier)
    }

    /// Counts one attempt of `kind` for an identifier or account (`key`) so that an attacker
    /// cannot lock its owner out: the limit holds per client network (whoever floods gets `wait`
    /// for the window), and over every client together the identifier past its ceiling
    /// (``RateLimits/identifierCeilingFactor`` times the limit) is slowed to one attempt per
    /// ``RateLimits/slowedInterval``, never blocked for the window; a client from a network the
    /// account signed in from before (`userId`'s sessions) is not slowed at all. A refused attempt
    /// is not counted (the transaction rolls back).
    func consumeForIdentifier(
        _ kind: String, _ key: String, clientHash: String?, userId: String?, limit: Int, now: Int64,
        in repositories: Repositories
    ) async throws {
        guard limit > 0 else { return }
        let rates = limits.rateLimits
        let window = milliseconds(rates.window)
        if let clientHash {
            let (hits, windowStart) = try await repositories.rateLimits.hit(
                bucket: "\(kind):\(key):\(clientHash)", now: now, window: window)
            if hits > Int64(limit) {
                logger.notice("rate limit reached", metadata: ["limit": "\(kind)", "scope": "client"])
                metrics.rateLimited(limit: "\(kind)-per-client")
                throw FlowProblem.rateLimited(until: windowStart + window, now: now)
            }
        }
        let (total, _) = try await repositories.rateLimits.hit(bucket: "\(kind):\(key)", now: now, window: window)
        guard total > Int64(limit) * Int64(rates.identifierCeilingFactor) else { return }
        if let userId, try await repositories.sessions.history(userId: userId, addressHash: clientHash).fromAddress {
            return
        }
        let spacing = milliseconds(rates.slowedInterval)
        let (recent, slotStart) = try await repositories.rateLimits.hit(bucket: "\(kind)-slow:\(key)", now: now, window: spacing)
        if recent > 1 {
            logger.notice("rate limit reached", metadata: ["limit": "\(kind)", "scope": "slowed"])
            metrics.rateLimited(limit: "\(kind)-slowed")
            throw FlowProblem.rateLimited(until: slotStart + spacing, now: now)
        }
    }

    /// Counts one attempt of `kind` for `key`; over `limit` in the window, refuses with `wait`
    /// (the refused attempt is not kept: the transaction rolls back).
    func consume(_ kind: String, _ key: String, limit: Int, now: Int64, in repositories: Repositories)
        async throws
    {
        guard limit > 0 else { return }
        let window = milliseconds(limits.rateLimits.window)
        let (hits, windowStart) = try await repositories.rateLimits.hit(bucket: "\(kind):\(key)", now: now, window: window)
        if hits > Int64(limit) {
            logger.notice("rate limit reached", metadata: ["limit": "\(kind)"])
            metrics.rateLimited(limit: kind)
            throw FlowProblem.rateLimited(until: windowStart + window, now: now)
        }
    }

    /// Counts one check (a code, an authenticator code or a password) for the request's client
    /// address, over all identifiers.
    func consumeCheck(_ context: Context, in repositories: Repositories) async throws {
        guard let address = context.addressHash else { return }
        try await consume("check-ip", address, limit: limits.rateLimits.checksPerAddress, now: context.now, in: repositories)
    }

    func milliseconds(_ interval: TimeInterval) -> Int64 {
        Int64((interval * 1000).rounded())
    }
}

extension FlowEngine {
    /// What each method reads of the flow's user (``MethodDataLoader``).
    func loadMethodData(_ context: inout Context, in repositories: Repositories) async throws {
        for loader in methods.all((any MethodDataLoader).self) {
            try await loader.load(into: &context, in: repositories)
        }
    }

    /// Reads what the method families need for this request (``MethodFamily``).
    func loadFamilies(_ context: inout Context, in repositories: Repositories) async throws {
        for family in methods.families {
            try await family.loadFamily(into: &context, in: repositories)
        }
    }
}
