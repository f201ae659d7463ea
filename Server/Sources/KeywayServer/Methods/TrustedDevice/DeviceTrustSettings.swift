/// How an application treats trusted devices and approvals from them.
///
/// With ``enabled``, a client that can keep a device key enrols its device after a completed
/// second factor, and later sign-ins from that device skip the second factor once the device
/// proves its key. ``AuthenticationMethod/deviceApproval`` in ``ApplicationPolicy/mfaMethods``
/// lets a sign-in on a new device be approved from a trusted one.
public struct DeviceTrustSettings: Codable, Sendable, Equatable {
    /// How a device's trust runs out.
    public enum LifetimeMode: String, Codable, Sendable, CaseIterable {
        /// ``DeviceTrustSettings/trustLifetimeDays`` after the device last proved itself.
        case sliding
        /// ``DeviceTrustSettings/trustLifetimeDays`` after enrolment, however often it is used.
        case absolute
    }

    /// What enrolling one more device than ``DeviceTrustSettings/maximumDevices`` does.
    public enum WhenFull: String, Codable, Sendable, CaseIterable {
        /// The device used least recently stops being trusted.
        case evictOldest
        /// The new device is not enrolled; the sign-in completes without it.
        case refuse
    }

    /// Whether devices can be trusted at all.
    public var enabled: Bool
    /// Days a device stays trusted: 1…365, default 30.
    public var trustLifetimeDays: Int
    /// Sliding (default) or absolute lifetime.
    public var lifetimeMode: LifetimeMode
    /// Trusted devices per user and application: 1…100, default 10.
    public var maximumDevices: Int
    /// What a device beyond the maximum does.
    public var whenFull: WhenFull
    /// Whether an elevated risk (a new address, recent failures) asks for the second factor even
    /// on a trusted device. Default `true`.
    public var riskOverridesTrust: Bool
    /// Whether a trusted device alone signs in on a low-risk sign-in, before any primary method.
    /// Default `false`: the primary method still runs.
    public var deviceAloneSignsIn: Bool
    /// Seconds an approval request waits for a trusted device: 30…600, default 120.
    public var approvalLifetimeSeconds: Int
    /// Seconds between polls of a waiting sign-in: 1…30, default 2.
    public var approvalPollIntervalSeconds: Int

    public init(
        enabled: Bool = false, trustLifetimeDays: Int = 30, lifetimeMode: LifetimeMode = .sliding,
        maximumDevices: Int = 10, whenFull: WhenFull = .evictOldest, riskOverridesTrust: Bool = true,
        deviceAloneSignsIn: Bool = false, approvalLifetimeSeconds: Int = 120, approvalPollIntervalSeconds: Int = 2
    ) {
        self.enabled = enabled
        self.trustLifetimeDays = trustLifetimeDays
        self.lifetimeMode = lifetimeMode
        self.maximumDevices = maximumDevices
        self.whenFull = whenFull
        self.riskOverridesTrust = riskOverridesTrust
        self.deviceAloneSignsIn = deviceAloneSignsIn
        self.approvalLifetimeSeconds = approvalLifetimeSeconds
        self.approvalPollIntervalSeconds = approvalPollIntervalSeconds
    }

    private enum CodingKeys: String, CodingKey {
        case enabled, trustLifetimeDays, lifetimeMode, maximumDevices, whenFull, riskOverridesTrust, deviceAloneSignsIn
        case approvalLifetimeSeconds, approvalPollIntervalSeconds
    }

    /// Decodes settings; missing fields take the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = DeviceTrustSettings()
        enabled = try container.decodeIfPresent(Bool.self, forKey: .enabled) ?? defaults.enabled
        trustLifetimeDays = try container.decodeIfPresent(Int.self, forKey: .trustLifetimeDays) ?? defaults.trustLifetimeDays
        lifetimeMode = try container.decodeIfPresent(LifetimeMode.self, forKey: .lifetimeMode) ?? defaults.lifetimeMode
        maximumDevices = try container.decodeIfPresent(Int.self, forKey: .maximumDevices) ?? defaults.maximumDevices
        whenFull = try container.decodeIfPresent(WhenFull.self, forKey: .whenFull) ?? defaults.whenFull
        riskOverridesTrust =
            try container.decodeIfPresent(Bool.self, forKey: .riskOverridesTrust) ?? defaults.riskOverridesTrust
        deviceAloneSignsIn =
            try container.decodeIfPresent(Bool.self, forKey: .deviceAloneSignsIn) ?? defaults.deviceAloneSignsIn
        approvalLifetimeSeconds =
            try container.decodeIfPresent(Int.self, forKey: .approvalLifetimeSeconds) ?? defaults.approvalLifetimeSeconds
        approvalPollIntervalSeconds =
            try container.decodeIfPresent(Int.self, forKey: .approvalPollIntervalSeconds)
            ?? defaults.approvalPollIntervalSeconds
    }

    /// Milliseconds of trust.
    var trustLifetimeMilliseconds: Int64 { Int64(trustLifetimeDays) * 86_400_000 }
}

extension DeviceTrustSettings: DefaultedMethodSettings {
    static var defaults: DeviceTrustSettings { DeviceTrustSettings() }
    static let policyKey = "devices"
}

extension ApplicationPolicy {
    /// Trusted devices and approvals (`devices`).
    public var devices: DeviceTrustSettings {
        get { methodSettings[defaulted: DeviceTrustSettings.self] }
        set { methodSettings[defaulted: DeviceTrustSettings.self] = newValue }
    }
}

extension FlowPolicy {
    /// Trusted devices and approvals.
    var devices: DeviceTrustSettings {
        get { methodSettings[defaulted: DeviceTrustSettings.self] }
        set { methodSettings[defaulted: DeviceTrustSettings.self] = newValue }
    }
}
