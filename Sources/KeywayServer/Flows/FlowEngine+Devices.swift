import Foundation
import KeywayJOSE
import KeywayProtocol

/// Trusted devices in flows: enrolling the device after a second factor, proving it on later
/// sign-ins instead of the second factor (or instead of everything, for a low-risk sign-in when
/// the policy allows), and approvals of a sign-in from another trusted device.
///
/// A device that cannot be proven never ends a flow: the flow falls back to the second factor
/// and the step carries the `deviceNotRecognized` notice, on which the client forgets its key.
extension FlowEngine {
    /// The notice a step carries when the client's device is not (any more) trusted.
    static let deviceNotRecognized = "deviceNotRecognized"

    // MARK: Offering device steps

    /// The device the client named, when it is trusted now for the context's user in this application.
    private func hintedTrustedDevice(_ context: Context, in repositories: Repositories) async throws
        -> TrustedDeviceRecord?
    {
        guard let deviceId = context.progress.deviceHint?.deviceId, let user = context.user,
            let device = try await repositories.trustedDevices.find(id: deviceId), device.userId == user.id,
            device.applicationId == context.application.id, device.isTrusted(at: context.now)
        else { return nil }
        return device
    }

    /// Sign-in with the device alone (``DeviceTrustSettings/deviceAloneSignsIn``): when the client
    /// names a trusted device of the identifier's account and the attempt is low-risk, the flow
    /// starts with `deviceChallenge` instead of a primary method. `false` when it does not apply.
    func offerDeviceAlone(_ context: inout Context, in repositories: Repositories) async throws -> Bool {
        let settings = context.policy.devices
        guard context.progress.mode == .signIn, settings.enabled, settings.deviceAloneSignsIn,
            let user = context.user, !user.isBlocked, try await hintedTrustedDevice(context, in: repositories) != nil
        else { return false }
        let risk = try await assessRisk(context, user: user, in: repositories)
        if let risk, risk.level != "low" { return false }
        context.progress.stage = .deviceChallenge
        context.progress.purpose = .primary
        context.progress.deviceChallenge = DeviceSignatures.newChallenge()
        return true
    }

    /// Instead of the second factor, asks the client to prove the trusted device it named. `false`
    /// when there is no such device (the step then carries `deviceNotRecognized`), when elevated
    /// risk overrides trust, or when it was tried already.
    func offerDeviceChallenge(_ context: inout Context, in repositories: Repositories) async throws -> Bool {
        let settings = context.policy.devices
        guard settings.enabled, !context.progress.deviceChecked, context.progress.deviceHint?.deviceId != nil,
            context.user != nil
        else { return false }
        context.progress.deviceChecked = true
        guard try await hintedTrustedDevice(context, in: repositories) != nil else {
            context.progress.notice = Self.deviceNotRecognized
            return false
        }
        if settings.riskOverridesTrust, let risk = context.progress.risk, risk.level != "low" {
            // The device stays trusted; this sign-in asks for the second factor anyway.
            context.progress.deviceEnrolOffered = true
            return false
        }
        context.progress.stage = .deviceChallenge
        context.progress.purpose = .secondFactor
        context.progress.deviceChallenge = DeviceSignatures.newChallenge()
        return true
    }

    /// After a second factor, asks a client that can keep a key to enrol its device. `false` when
    /// it does not apply (devices off, the client cannot enrol, a device proved itself already).
    func offerDeviceEnrolment(_ context: inout Context) -> Bool {
        guard context.policy.devices.enabled, context.progress.mode != .manage,
            context.progress.deviceHint?.canEnrol == true, context.progress.secondFactorDone,
            !context.progress.deviceProven, !context.progress.deviceEnrolOffered
        else { return false }
        context.progress.stage = .deviceEnroll
        context.progress.purpose = .enrolment
        context.progress.deviceChallenge = DeviceSignatures.newChallenge()
        if context.progress.notice == Self.deviceNotRecognized { context.progress.notice = nil }
        return true
    }

    // MARK: Answers

    /// Enrols the device of a `deviceEnroll` step: checks the key and its signature, then keeps
    /// the device for the moment the flow completes.
    func enrolDevice(_ target: Target, request: EnrollDeviceRequest) async throws -> Step {
        try await run(target) { context, repositories in
            try self.expect(.deviceEnroll, context)
            let name = request.name.trimmingCharacters(in: .whitespacesAndNewlines)
            var invalid: [InvalidField] = []
            if name.isEmpty || name.count > 100 || name.contains(where: \.isNewline) {
                invalid.append(InvalidField(name: "name", reason: "Give the device a name of 1 to 100 characters."))
            }
            guard let key = try? ECJWK.publicKey(from: request.publicKey) else {
                throw FlowProblem.invalidRequest(
                    invalid + [InvalidField(name: "publicKey", reason: "Send an EC P-256 public JWK.")])
            }
            if !invalid.isEmpty { throw FlowProblem.invalidRequest(invalid) }
            let jwk = ECJWK.publicJWK(for: key)
            guard let thumbprint = jwk.kid, let challenge = context.progress.deviceChallenge else {
                throw FlowProblem.internalError
            }
            let input = DeviceSigningInput.enrolment(
                challenge: challenge, flowId: context.flow.id, configId: context.application.configId,
                audience: context.audience, keyThumbprint: thumbprint)
            guard DeviceSignatures.verify(request.signature, of: input, with: jwk) else {
                // Not worth ending a sign-in for: the client may skip enrolment.
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "signature", reason: "The signature does not verify with this key and challenge.")
                ])
            }
            let encoded = String(decoding: try JSONEncoder().encode(jwk), as: UTF8.self)
            context.progress.pendingDevice = TrustedDeviceRecord(
                id: SecureRandom.identifier(prefix: "dev"), userId: context.user?.id ?? "",
                applicationId: context.application.id, publicKey: encoded, keyThumbprint: thumbprint, name: name,
                userAgent: context.progress.userAgent, hardwareBacked: request.hardwareBacked, createdAt: context.now,
                lastUsedAt: nil, trustedUntil: context.now + context.policy.devices.trustLifetimeMilliseconds)
            context.progress.deviceEnrolOffered = true
            context.progress.deviceChallenge = nil
            return try await self.advance(&context, in: repositories)
        }
    }

    /// Checks the signature of a `deviceChallenge` step. A valid one stands in for the second
    /// factor (or signs in alone); any other answer falls back to the methods, with the
    /// `deviceNotRecognized` notice.
    func proveDevice(_ target: Target, signature: String) async throws -> Step {
        try await run(target) { context, repositories in
            try self.expect(.deviceChallenge, context)
            let purpose = context.progress.purpose
            let challenge = context.progress.deviceChallenge
            context.progress.deviceChallenge = nil
            context.progress.deviceChecked = true
            if let challenge, let device = try await self.hintedTrustedDevice(context, in: repositories),
                DeviceSignatures.verify(
                    signature,
                    of: .challenge(
                        challenge: challenge, flowId: context.flow.id, configId: context.application.configId,
                        audience: context.audience, deviceId: device.id),
                    storedKey: device.publicKey)
            {
                let settings = context.policy.devices
                let until =
                    settings.lifetimeMode == .sliding
                    ? context.now + settings.trustLifetimeMilliseconds : device.trustedUntil
                try await repositories.trustedDevices.touch(id: device.id, now: context.now, trustedUntil: until)
                context.progress.deviceProven = true
                context.progress.amr.append(device.amr)
                if purpose == .primary {
                    // The device alone: one factor, so no `mfa` in `amr`.
                    context.progress.primaryDone = true
                    return try await self.complete(&context, in: repositories)
                }
                context.progress.secondFactorDone = true
                return try await self.advance(&context, in: repositories)
            }
            // Not proven: forget the device for this flow and carry on with the methods.
            context.progress.notice = Self.deviceNotRecognized
            if purpose == .primary {
                try await self.beginPrimary(&context, in: repositories)
                return nil
            }
            return try await self.advance(&context, in: repositories)
        }
    }

    /// Skips a device step the client cannot answer (no key, no storage).
    func skipDeviceStep(_ context: inout Context, in repositories: Repositories) async throws -> FlowProblem? {
        switch context.progress.stage {
        case .deviceEnroll:
            context.progress.deviceEnrolOffered = true
            context.progress.deviceChallenge = nil
            return try await advance(&context, in: repositories)
        case .deviceChallenge:
            context.progress.deviceChecked = true
            context.progress.deviceChallenge = nil
            if context.progress.purpose == .primary {
                try await beginPrimary(&context, in: repositories)
                return nil
            }
            return try await advance(&context, in: repositories)
        default:
            throw FlowProblem.invalidStep
        }
    }

    // MARK: Writing the device

    /// Writes the device enrolled in this flow for `user`, making room as the policy says. Returns
    /// its ID, or `nil` when the policy refuses one more device.
    func storeEnrolledDevice(_ context: inout Context, user: UserRecord, in repositories: Repositories)
        async throws -> String?
    {
        guard var device = context.progress.pendingDevice else { return nil }
        context.progress.pendingDevice = nil
        device.userId = user.id
        let settings = context.policy.devices
        let trusted = try await repositories.trustedDevices.trusted(
            userId: user.id, applicationId: context.application.id, now: context.now)
        if trusted.count >= settings.maximumDevices {
            guard settings.whenFull == .evictOldest else {
                logger.notice("device not enrolled: the account has the most devices allowed", metadata: ["user": "\(user.id)"])
                return nil
            }
            // `trusted` is most recently used first: evict from the end.
            for old in trusted.suffix(trusted.count - settings.maximumDevices + 1) {
                _ = try await repositories.trustedDevices.revoke(id: old.id, userId: user.id, now: context.now)
            }
        }
        try await repositories.trustedDevices.insert(device)
        logger.info("device trusted", metadata: ["user": "\(user.id)", "device": "\(device.id)"])
        return device.id
    }

    // MARK: Approvals

    /// How many trusted devices could approve a sign-in of the context's user, other than the one
    /// the client named.
    func approverCount(_ context: Context, in repositories: Repositories) async throws -> Int {
        guard context.policy.devices.enabled, context.policy.mfaMethods.contains(.deviceApproval),
            let user = context.user
        else { return 0 }
        let devices = try await repositories.trustedDevices.trusted(userId: user.id, applicationId: nil, now: context.now)
        return devices.filter { $0.id != context.progress.deviceHint?.deviceId }.count
    }

    /// Opens an approval request for the flow and moves to `awaitApproval`; tells the project's
    /// backend (`approval.requested`) when it receives events.
    func requestApproval(_ context: inout Context, in repositories: Repositories) async throws {
        guard let user = context.user else { throw FlowProblem.methodUnavailable }
        let settings = context.policy.devices
        let secret = SecureRandom.token(prefix: "kqr")
        let approval = ApprovalRecord(
            id: SecureRandom.identifier(prefix: "apr"), flowId: context.flow.id, applicationId: context.application.id,
            userId: user.id, matchingNumber: String(Int.random(in: 10...99)), qrSecretHash: sha256Hex(secret),
            state: .pending, location: context.location, userAgent: context.progress.userAgent, createdAt: context.now,
            expiresAt: context.now + Int64(settings.approvalLifetimeSeconds) * 1000)
        try await repositories.approvals.insert(approval)
        context.progress.stage = .awaitApproval
        context.progress.approvalId = approval.id
        context.progress.sealedApprovalSecret = try secrets.seal(Array(secret.utf8), purpose: "approval:\(context.flow.id)")
        context.progress.matchingNumber = approval.matchingNumber
        context.progress.approvalExpiresAt = approval.expiresAt
        context.progress.lastPolledAt = nil
        if context.policy.sendsEvents {
            let event = ApprovalRequestedEvent(
                type: "approval.requested", approvalId: approval.id, userId: user.id,
                applicationName: context.application.name, configId: context.application.configId,
                matchingNumber: approval.matchingNumber, location: approval.location, userAgent: approval.userAgent,
                createdAt: Date(epochMilliseconds: approval.createdAt),
                expiresAt: Date(epochMilliseconds: approval.expiresAt))
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = .sortedKeys
            context.events.append(
                DeliveryRequest(
                    projectId: context.application.projectId, flowId: context.flow.id, channel: .event,
                    recipient: user.id, subject: event.type,
                    body: Sensitive(String(decoding: try encoder.encode(event), as: UTF8.self)), code: nil,
                    idempotencyKey: SecureRandom.identifier(prefix: "idk")))
        }
    }

    /// Polls the approval the flow waits for: the same step while it is pending, the next step
    /// once approved, and an error action when it was denied or expired. Polling faster than the
    /// step's `pollInterval` is refused with `slow_down`.
    func pollApproval(_ target: Target) async throws -> Step {
        try await run(target) { context, repositories in
            try self.expect(.awaitApproval, context)
            let interval = Int64(context.policy.devices.approvalPollIntervalSeconds) * 1000
            // A little slack for clocks and transport jitter.
            if let last = context.progress.lastPolledAt, context.now - last < interval - 250 {
                throw FlowProblem.slowDown(seconds: context.policy.devices.approvalPollIntervalSeconds)
            }
            context.progress.lastPolledAt = context.now
            guard let approvalId = context.progress.approvalId,
                let approval = try await repositories.approvals.find(id: approvalId), approval.flowId == context.flow.id
            else { throw FlowProblem.internalError }
            switch approval.state {
            case .pending:
                guard context.now >= approval.expiresAt else { return nil }
                context.flow.state = .failed
                return .approvalExpired
            case .denied, .withdrawn:
                context.flow.state = .failed
                return .approvalDenied
            case .approved:
                context.progress.secondFactorDone = true
                var approver: TrustedDeviceRecord?
                if let deviceId = approval.decidedByDeviceId {
                    approver = try await repositories.trustedDevices.find(id: deviceId)
                }
                context.progress.amr.append(approver?.amr ?? "swk")
                context.progress.approvalId = nil
                context.progress.sealedApprovalSecret = nil
                return try await self.advance(&context, in: repositories)
            }
        }
    }
}

/// The body of the `approval.requested` event sent to the project's events webhook.
struct ApprovalRequestedEvent: Codable, Sendable {
    var type: String
    var approvalId: String
    var userId: String
    var applicationName: String
    var configId: String
    var matchingNumber: String
    var location: String?
    var userAgent: String?
    var createdAt: Date
    var expiresAt: Date
}

extension CodeChannel {
    /// Events for the project's backend; delivered only to a configured events webhook.
    static let event = CodeChannel(rawValue: "event")
}
