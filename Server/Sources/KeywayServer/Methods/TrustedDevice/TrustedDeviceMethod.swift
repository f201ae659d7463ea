import Foundation
import KeywayProtocol

/// Trusted devices: a device the user enrolled (its key kept by the SDK) proves itself with a
/// signature over a challenge (`deviceChallenge`), standing in for the second factor — or for
/// everything, for a low-risk sign-in when the policy allows — and a device that can keep a key is
/// enrolled after a second factor (`deviceEnroll`). Never chosen by the user: the engine offers
/// it (``canProve(_:)``, ``canEnrol(_:)``, as ``FlowSequence`` decides), and the SDK answers both
/// steps itself.
struct TrustedDeviceMethod: AccountOperationsMethod, SkippableMethod, ConfigurableMethod, MethodDataLoader {
    let id: FlowMethodID = .trustedDevice

    let settings: [any MethodSettings.Type] = [DeviceTrustSettings.self]

    /// The device trust settings (``ApplicationPolicy/devices``), each within its range.
    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem] {
        let devices = policy.devices
        var problems: [PolicyProblem] = []
        func check(_ valid: Bool, _ code: String, _ field: String, _ message: String) {
            if !valid { problems.append(PolicyProblem(code: code, field: "devices.\(field)", message: message)) }
        }
        check(
            (1...365).contains(devices.trustLifetimeDays), "invalid_trust_lifetime", "trustLifetimeDays",
            "The trust lifetime must be between 1 and 365 days.")
        check(
            (1...100).contains(devices.maximumDevices), "invalid_maximum_devices", "maximumDevices",
            "The maximum number of devices must be between 1 and 100.")
        check(
            (30...600).contains(devices.approvalLifetimeSeconds), "invalid_approval_lifetime", "approvalLifetimeSeconds",
            "An approval request must last between 30 and 600 seconds.")
        check(
            (1...30).contains(devices.approvalPollIntervalSeconds), "invalid_poll_interval", "approvalPollIntervalSeconds",
            "The poll interval must be between 1 and 30 seconds.")
        return problems
    }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        MethodOption(id: id.rawValue, type: id, label: "Use this trusted device")
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        let stage = (try? active.state(as: TrustedDeviceStage.self)) ?? TrustedDeviceStage()
        if stage.enrolling == true {
            draft.info = StepInfo(id: "trustDevice", label: "Remembering this device")
            draft.payload = .deviceEnroll(DeviceEnrollPayload(challenge: stage.challenge ?? "", audience: context.audience))
            draft.post("enrollDevice", "device/enroll", label: "Trust this device")
            draft.post("skip", "skip", label: "Not now")
        } else {
            draft.info = StepInfo(id: "proveDevice", label: "Checking this device")
            draft.payload = .deviceChallenge(
                DeviceChallengePayload(
                    challenge: stage.challenge ?? "", audience: context.audience,
                    deviceID: context.progress.client.deviceHint?.deviceID ?? ""))
            draft.post("proveDevice", "device/prove", label: "Continue")
            draft.post("skip", "skip", label: "Use another method")
        }
    }

    var notices: [String: String] {
        [
            Self.deviceNotRecognized: "This device is not trusted any more; confirm it is you another way.",
            "deviceRevoked": "The device is no longer trusted.",
            "devicesRevoked": "No device is trusted any more.",
        ]
    }

    func routes(_ routes: FlowInputRoutes) {
        routes.input("device/enroll", of: id, as: EnrollDeviceRequest.self) { body, method in
            try await enrol(body, &method)
        }
        routes.input("device/prove", of: id, as: DeviceSignatureRequest.self) { body, method in
            try await prove(signature: body.signature, &method)
        }
    }
}

/// The state of a trusted-device stage. Every member is optional.
struct TrustedDeviceStage: Codable, Sendable, Equatable {
    /// The challenge the device signs.
    var challenge: String?
    /// `true` while enrolling the device (`deviceEnroll`); else the device proves itself.
    var enrolling: Bool?
}

extension TrustedDeviceMethod {
    /// Reads the user's trusted devices for account management, where the policy uses devices.
    func load(into context: inout FlowEngine.Context, in repositories: Repositories) async throws {
        guard context.progress.isManage, context.policy.devices.enabled, let user = context.user else { return }
        context.trustedDevices = try await repositories.trustedDevices.trusted(
            userId: user.id, applicationId: context.application.id, now: context.now)
    }
}

extension FlowEngine.Context {
    /// The user's trusted devices, for a `manageAccount` step (read by ``TrustedDeviceMethod``).
    var trustedDevices: [TrustedDeviceRecord] {
        get { methodData[.trustedDevice] as? [TrustedDeviceRecord] ?? [] }
        set { methodData[.trustedDevice] = newValue }
    }
}

extension MethodContext {
    /// The user's trusted devices, as the trusted-device method's operations change them.
    var trustedDevices: [TrustedDeviceRecord] {
        get { data as? [TrustedDeviceRecord] ?? [] }
        set { data = newValue }
    }
}

extension TrustedDeviceMethod: AccountPageMethod {
    /// The user's trusted devices, where the policy enables them.
    func fill(_ payload: inout ManageAccountPayload, _ context: FlowEngine.Context) {
        guard context.policy.devices.enabled else { return }
        payload.devices = context.trustedDevices.map(TrustedDevice.init)
    }
}
