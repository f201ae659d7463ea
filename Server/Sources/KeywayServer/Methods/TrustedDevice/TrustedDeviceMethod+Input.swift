import Foundation
import KeywayJOSE
import KeywayProtocol

/// The answers of the device steps: an enrolment (`device/enroll`), a proof (`device/prove`),
/// and `skip` from a client that cannot answer.
extension TrustedDeviceMethod {
    /// Enrols the device of a `deviceEnroll` step: checks the key and its signature, then keeps
    /// the device for the moment the flow completes.
    func enrol(_ request: EnrollDeviceRequest, _ method: inout MethodContext) async throws -> FlowProblem? {
        let stage = try method.state(as: TrustedDeviceStage.self)
        guard stage.enrolling == true else { throw FlowProblem.invalidStep }
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
        guard let thumbprint = jwk.kid, let challenge = stage.challenge else { throw FlowProblem.internalError }
        let context = method.context
        let input = DeviceSigningInput.enrolment(
            challenge: challenge, flowID: context.flow.id, configID: context.application.configId,
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
        guard let appAttest = method.dependencies.appAttest else {
            method.logger.error("device enrolment: the server gave the method no App Attest checks")
            throw FlowProblem.internalError
        }
        let attestation = try await appAttest.check(
            request.appAttest, clientData: data, settings: settings, asked: settings.deviceEnrolment,
            applicationId: context.application.id, in: method.repositories)
        let hardwareBacked = attestation == .unattested ? false : request.hardwareBacked
        let encoded = String(decoding: try JSONEncoder().encode(jwk), as: UTF8.self)
        method.trustedDevice.pending = TrustedDeviceRecord(
            id: SecureRandom.identifier(prefix: "dev"), userId: context.user?.id ?? "",
            applicationId: context.application.id, publicKey: encoded, keyThumbprint: thumbprint, name: name,
            userAgent: context.progress.client.userAgent, hardwareBacked: hardwareBacked, createdAt: context.now,
            lastUsedAt: nil, trustedUntil: context.now + context.policy.devices.trustLifetimeMilliseconds)
        method.trustedDevice.enrolOffered = true
        return try await method.moveOn()
    }

    /// Checks the signature of a `deviceChallenge` step. A valid one stands in for the second
    /// factor (or signs in alone); any other answer falls back to the methods, with the
    /// `deviceNotRecognized` notice.
    func prove(signature: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        let stage = try method.state(as: TrustedDeviceStage.self)
        guard stage.enrolling != true else { throw FlowProblem.invalidStep }
        let context = method.context
        let purpose = context.progress.purpose
        method.trustedDevice.checked = true
        if let challenge = stage.challenge, let device = try await Self.hintedDevice(method),
            DeviceSignatures.verify(
                signature,
                of: .challenge(
                    challenge: challenge, flowID: context.flow.id, configID: context.application.configId,
                    audience: context.audience, deviceID: device.id),
                storedKey: device.publicKey)
        {
            let settings = context.policy.devices
            let until =
                settings.lifetimeMode == .sliding ? context.now + settings.trustLifetimeMilliseconds : device.trustedUntil
            try await method.repositories.trustedDevices.touch(id: device.id, now: context.now, trustedUntil: until)
            if purpose == .primary {
                // The device alone: one factor, so no `mfa` in `amr`.
                method.record(.primary, amr: device.amr)
                return try await method.complete()
            }
            method.record(.secondFactor, amr: device.amr)
            return try await method.moveOn()
        }
        // Not proven: forget the device for this flow and carry on with the methods.
        method.leaveNotice(Self.deviceNotRecognized)
        if purpose == .primary {
            try await method.restartPrimary()
            return nil
        }
        return try await method.moveOn()
    }

    /// Skips a device step the client cannot answer (no key, no storage).
    func skip(_ method: inout MethodContext) async throws -> FlowProblem? {
        let stage = try method.state(as: TrustedDeviceStage.self)
        if stage.enrolling == true {
            method.trustedDevice.enrolOffered = true
            return try await method.moveOn()
        }
        method.trustedDevice.checked = true
        if method.context.progress.purpose == .primary {
            try await method.restartPrimary()
            return nil
        }
        return try await method.moveOn()
    }
}
