import Foundation
import KeywayJOSE
import KeywayProtocol

/// Trusted devices in flows: enrolling the device after a second factor, and proving it on later
/// sign-ins instead of the second factor (or instead of everything, for a low-risk sign-in when
/// the policy allows).
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
        guard let deviceId = context.progress.device.hint?.deviceId, let user = context.user,
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
        guard context.progress.isSignIn, settings.enabled, settings.deviceAloneSignsIn,
            let user = context.user, !user.isBlocked, try await hintedTrustedDevice(context, in: repositories) != nil
        else { return false }
        let risk = try await assessRisk(context, user: user, in: repositories)
        if let risk, risk.level != "low" { return false }
        context.progress.stage = .method(
            try ActiveMethod(.trustedDevice, purpose: .primary, state: TrustedDeviceStage(challenge: DeviceSignatures.newChallenge())))
        return true
    }

    /// Whether the trusted device the client named can prove itself instead of the second factor:
    /// `false` when there is no such device (the step then carries `deviceNotRecognized`), when
    /// elevated risk overrides trust, or when it was tried already. Asked once per flow.
    func namedDeviceCanProve(_ context: inout Context, in repositories: Repositories) async throws -> Bool {
        let settings = context.policy.devices
        guard settings.enabled, !context.progress.device.checked, context.progress.device.hint?.deviceId != nil,
            context.user != nil
        else { return false }
        context.progress.device.checked = true
        guard try await hintedTrustedDevice(context, in: repositories) != nil else {
            context.progress.notice = Self.deviceNotRecognized
            return false
        }
        if settings.riskOverridesTrust, let risk = context.progress.risk, risk.level != "low" {
            // The device stays trusted; this sign-in asks for the second factor anyway.
            context.progress.device.enrolOffered = true
            return false
        }
        return true
    }

    /// Asks the client to prove the trusted device it named (``FlowSequence/Next/proveDevice``).
    func beginDeviceChallenge(_ context: inout Context) throws {
        context.progress.stage = .method(
            try ActiveMethod(
                .trustedDevice, purpose: .secondFactor, state: TrustedDeviceStage(challenge: DeviceSignatures.newChallenge())))
    }

    /// Whether a client that can keep a key may enrol its device now: devices on, not account
    /// management, after a second factor, no device proved itself, not offered yet.
    func deviceCanEnrol(_ context: Context) -> Bool {
        context.policy.devices.enabled && !context.progress.isManage && context.progress.device.hint?.canEnrol == true
            && context.progress.secondFactorDone && !context.progress.deviceProven && !context.progress.device.enrolOffered
    }

    /// Asks the client to enrol its device (``FlowSequence/Next/enrolDevice``).
    func beginDeviceEnrolment(_ context: inout Context) throws {
        context.progress.stage = .method(
            try ActiveMethod(
                .trustedDevice, purpose: .enrolment,
                state: TrustedDeviceStage(challenge: DeviceSignatures.newChallenge(), enrolling: true)))
        if context.progress.notice == Self.deviceNotRecognized { context.progress.notice = nil }
    }

    // MARK: Answers

    /// Enrols the device of a `deviceEnroll` step: checks the key and its signature, then keeps
    /// the device for the moment the flow completes.
    func enrolDevice(_ target: Target, request: EnrollDeviceRequest) async throws -> Step {
        try await run(target) { context, repositories in
            guard let stage = TrustedDeviceMethod.stage(context), stage.enrolling == true else {
                throw FlowProblem.invalidStep
            }
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
            guard let thumbprint = jwk.kid, let challenge = stage.challenge else {
                throw FlowProblem.internalError
            }
            let input = DeviceSigningInput.enrolment(
                challenge: challenge, flowId: context.flow.id, configId: context.application.configId,
                audience: context.audience, keyThumbprint: thumbprint)
            guard let data = input.data, DeviceSignatures.verify(request.signature, of: input, with: jwk) else {
                // Not worth ending a sign-in for: the client may skip enrolment.
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "signature", reason: "The signature does not verify with this key and challenge.")
                ])
            }
            // With App Attest, a hardware-backed key rests on an assertion of a genuine app
            // instance over the same input, not on what the client declares.
            let settings = context.policy.appAttest
            let attestation = try await self.appAttest.check(
                request.appAttest, clientData: data, settings: settings, asked: settings.deviceEnrolment,
                applicationId: context.application.id, in: repositories)
            let hardwareBacked = attestation == .unattested ? false : request.hardwareBacked
            let encoded = String(decoding: try JSONEncoder().encode(jwk), as: UTF8.self)
            context.progress.device.pending = TrustedDeviceRecord(
                id: SecureRandom.identifier(prefix: "dev"), userId: context.user?.id ?? "",
                applicationId: context.application.id, publicKey: encoded, keyThumbprint: thumbprint, name: name,
                userAgent: context.progress.device.userAgent, hardwareBacked: hardwareBacked, createdAt: context.now,
                lastUsedAt: nil, trustedUntil: context.now + context.policy.devices.trustLifetimeMilliseconds)
            context.progress.device.enrolOffered = true
            return try await self.advance(&context, in: repositories)
        }
    }

    /// Checks the signature of a `deviceChallenge` step. A valid one stands in for the second
    /// factor (or signs in alone); any other answer falls back to the methods, with the
    /// `deviceNotRecognized` notice.
    func proveDevice(_ target: Target, signature: String) async throws -> Step {
        try await run(target) { context, repositories in
            guard let stage = TrustedDeviceMethod.stage(context), stage.enrolling != true else {
                throw FlowProblem.invalidStep
            }
            let purpose = context.progress.purpose
            let challenge = stage.challenge
            context.progress.device.checked = true
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
                if purpose == .primary {
                    // The device alone: one factor, so no `mfa` in `amr`.
                    context.progress.prove(.trustedDevice, role: .primary, amr: device.amr, at: context.now)
                    return try await self.complete(&context, in: repositories)
                }
                context.progress.prove(.trustedDevice, role: .secondFactor, amr: device.amr, at: context.now)
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
        guard let stage = TrustedDeviceMethod.stage(context) else { throw FlowProblem.invalidStep }
        if stage.enrolling == true {
            context.progress.device.enrolOffered = true
            return try await advance(&context, in: repositories)
        }
        context.progress.device.checked = true
        if context.progress.purpose == .primary {
            try await beginPrimary(&context, in: repositories)
            return nil
        }
        return try await advance(&context, in: repositories)
    }

    // MARK: Writing the device

    /// Writes the device enrolled in this flow for `user`, making room as the policy says. Returns
    /// its ID, or `nil` when the policy refuses one more device.
    func storeEnrolledDevice(_ context: inout Context, user: UserRecord, in repositories: Repositories)
        async throws -> String?
    {
        guard var device = context.progress.device.pending else { return nil }
        context.progress.device.pending = nil
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
}
