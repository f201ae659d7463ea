import Foundation
import KeywayProtocol

/// Trusted devices in the sequence: the engine asks, as ``FlowSequence`` decides, whether the
/// device the client named signs in alone or stands in for the second factor, whether the client
/// may enrol its device, and writes the device enrolled when the flow completes.
///
/// A device that cannot be proven never ends a flow: the flow falls back to the second factor
/// and the step carries the `deviceNotRecognized` notice, on which the client forgets its key.
extension TrustedDeviceMethod: DeviceTrustMethod {
    /// The notice a step carries when the client's device is not (any more) trusted.
    static let deviceNotRecognized = "deviceNotRecognized"

    /// Asks for the device's proof (for the first factor or the second), or for its enrolment.
    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        switch purpose {
        case .primary, .secondFactor:
            try method.keep(TrustedDeviceStage(challenge: DeviceSignatures.newChallenge()))
        case .enrolment:
            try method.keep(TrustedDeviceStage(challenge: DeviceSignatures.newChallenge(), enrolling: true))
            if method.notice == Self.deviceNotRecognized { method.notice = nil }
        default:
            throw FlowProblem.methodUnavailable
        }
    }

    /// The device the client named, when it is trusted now for the flow's user in this application.
    static func hintedDevice(_ method: MethodContext) async throws -> TrustedDeviceRecord? {
        guard let deviceId = method.context.progress.client.deviceHint?.deviceID, let user = method.user,
            let device = try await method.repositories.trustedDevices.find(id: deviceId), device.userId == user.id,
            device.applicationId == method.application.id, device.isTrusted(at: method.now)
        else { return nil }
        return device
    }

    /// Sign-in with the device alone (``DeviceTrustSettings/deviceAloneSignsIn``): when the client
    /// names a trusted device of the identifier's account and the attempt is low-risk, the flow
    /// starts with `deviceChallenge` instead of a primary method.
    func signsInAlone(_ method: inout MethodContext) async throws -> Bool {
        let settings = method.policy.devices
        guard method.context.progress.isSignIn, settings.enabled, settings.deviceAloneSignsIn,
            let user = method.user, !user.isBlocked, try await Self.hintedDevice(method) != nil
        else { return false }
        if let risk = try await method.assessRisk(of: user), risk.level != "low" { return false }
        try await begin(.primary, &method)
        return true
    }

    /// `false` when there is no such device (the step then carries `deviceNotRecognized`), when
    /// elevated risk overrides trust, or when it was tried already.
    func canProve(_ method: inout MethodContext) async throws -> Bool {
        let settings = method.policy.devices
        guard settings.enabled, !method.trustedDevice.checked, method.context.progress.client.deviceHint?.deviceID != nil, method.user != nil else {
            return false
        }
        method.trustedDevice.checked = true
        guard try await Self.hintedDevice(method) != nil else {
            method.leaveNotice(Self.deviceNotRecognized)
            return false
        }
        if settings.riskOverridesTrust, let risk = method.context.progress.risk, risk.level != "low" {
            // The device stays trusted; this sign-in asks for the second factor anyway.
            method.trustedDevice.enrolOffered = true
            return false
        }
        return true
    }

    /// Devices on, not account management, after a second factor, no device proved itself, not
    /// offered yet, and a client that can keep a key.
    func canEnrol(_ context: FlowEngine.Context) -> Bool {
        context.policy.devices.enabled && !context.progress.isManage && context.progress.client.deviceHint?.canEnrol == true
            && context.progress.secondFactorDone && !context.progress.deviceProven && !context.progress.trustedDevice.enrolOffered
    }

    /// Makes room as the policy says (the least recently used first), or refuses one more device.
    func storeEnrolled(for user: UserRecord, _ method: inout MethodContext) async throws -> String? {
        guard var device = method.trustedDevice.pending else { return nil }
        method.trustedDevice.pending = nil
        device.userId = user.id
        let settings = method.policy.devices
        let devices = method.repositories.trustedDevices
        let trusted = try await devices.trusted(userId: user.id, applicationId: method.application.id, now: method.now)
        if trusted.count >= settings.maximumDevices {
            guard settings.whenFull == .evictOldest else {
                method.logger.notice(
                    "device not enrolled: the account has the most devices allowed", metadata: ["user": "\(user.id)"])
                return nil
            }
            // `trusted` is most recently used first: evict from the end.
            for old in trusted.suffix(trusted.count - settings.maximumDevices + 1) {
                _ = try await devices.revoke(id: old.id, userId: user.id, now: method.now)
            }
        }
        try await devices.insert(device)
        method.logger.info("device trusted", metadata: ["user": "\(user.id)", "device": "\(device.id)"])
        return device.id
    }
}
