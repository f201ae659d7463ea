import KeywayProtocol

/// How one application (one config ID) lets users in: which methods sign them in, whether a
/// second factor is asked for, which flows are open, what sign-up asks for, and where messages
/// are delivered.
///
/// The policy travels as JSON (the admin API, `keyway-server project policy`) and is stored as the
/// same JSON. An application without a stored policy has ``default(flowTypes:)``: today's
/// behaviour. A policy is only stored after ``validate(devMode:)`` accepted it; the flow engine
/// reads it with `PolicyRepository.policy(applicationId:)`.
public struct ApplicationPolicy: Codable, Sendable, Equatable {
    /// The methods that sign a user in, in the order they are offered. Never empty.
    public var primaryMethods: [AuthenticationMethod]
    /// The methods that can serve as a second factor (never ``AuthenticationMethod/password``).
    /// Ignored while ``mfaMode`` is ``MFAMode/off``.
    public var mfaMethods: [AuthenticationMethod]
    /// Whether a second factor is asked for.
    public var mfaMode: MFAMode
    /// The flows the application opens: `signin`, `signup`, `accountManage`. Kept equal to the
    /// application's flow types.
    public var flowTypes: [FlowType]
    /// What sign-up asks for.
    public var signup: SignupSettings
    /// Where messages are delivered, per channel.
    public var delivery: DeliverySettings
    /// Apple App Attest: which proofs of a genuine app instance the application asks for.
    public var appAttest: AppAttestSettings
    /// Guests: whether the application makes them, how long one never upgraded is kept, and how
    /// many one client network may make per hour.
    public var guests: GuestSettings = GuestSettings()
    /// Each method's own settings, by the method's key (``MethodSettings``); each method's folder
    /// gives them a typed accessor (`password`, `devices`, `federation`, `signInLink`, `passkeys`).
    var methodSettings = MethodSettingsTable()

    public init(
        primaryMethods: [AuthenticationMethod], mfaMethods: [AuthenticationMethod] = [], mfaMode: MFAMode = .off,
        flowTypes: [FlowType] = [.signin], signup: SignupSettings = SignupSettings(),
        delivery: DeliverySettings = DeliverySettings(), appAttest: AppAttestSettings = AppAttestSettings()
    ) {
        self.appAttest = appAttest
        self.primaryMethods = primaryMethods
        self.mfaMethods = mfaMethods
        self.mfaMode = mfaMode
        self.flowTypes = flowTypes
        self.signup = signup
        self.delivery = delivery
    }

    /// The policy of an application that has none stored: sign-in by email code, no second
    /// factor, no invite code, no profile fields, the server's delivery; `flowTypes` are the
    /// application's.
    public static func `default`(flowTypes: Set<FlowType>) -> ApplicationPolicy {
        let order: [FlowType] = [.signin, .signup, .accountManage]
        let known = order.filter(flowTypes.contains)
        let others = flowTypes.subtracting(order).sorted { $0.rawValue < $1.rawValue }
        return ApplicationPolicy(primaryMethods: [.emailOtp], flowTypes: known + others)
    }

    /// The same policy with every webhook signing secret masked, as reads show it.
    public var masked: ApplicationPolicy {
        var copy = self
        copy.delivery.sms = delivery.sms?.masked
        copy.delivery.email = delivery.email?.masked
        copy.delivery.events = delivery.events?.masked
        return copy
    }

    /// Whether any part of the policy uses `method`.
    public func uses(_ method: AuthenticationMethod) -> Bool {
        primaryMethods.contains(method) || (mfaMode != .off && mfaMethods.contains(method))
    }

    private enum CodingKeys: String, CodingKey {
        case primaryMethods, mfaMethods, mfaMode, flowTypes, signup, delivery, appAttest, guests
    }

    /// Decodes a policy. Only `primaryMethods` is required; the other fields default to the
    /// values of ``init(primaryMethods:mfaMethods:mfaMode:flowTypes:signup:delivery:appAttest:)``,
    /// each method's settings to the method's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        primaryMethods = try container.decode([AuthenticationMethod].self, forKey: .primaryMethods)
        mfaMethods = try container.decodeIfPresent([AuthenticationMethod].self, forKey: .mfaMethods) ?? []
        mfaMode = try container.decodeIfPresent(MFAMode.self, forKey: .mfaMode) ?? .off
        flowTypes = try container.decodeIfPresent([FlowType].self, forKey: .flowTypes) ?? [.signin]
        signup = try container.decodeIfPresent(SignupSettings.self, forKey: .signup) ?? SignupSettings()
        delivery = try container.decodeIfPresent(DeliverySettings.self, forKey: .delivery) ?? DeliverySettings()
        appAttest = try container.decodeIfPresent(AppAttestSettings.self, forKey: .appAttest) ?? AppAttestSettings()
        guests = try container.decodeIfPresent(GuestSettings.self, forKey: .guests) ?? GuestSettings()
        methodSettings = try MethodSettingsTable(from: decoder)
    }

    /// Encodes the policy: its own fields, then each method's settings under the method's key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(primaryMethods, forKey: .primaryMethods)
        try container.encode(mfaMethods, forKey: .mfaMethods)
        try container.encode(mfaMode, forKey: .mfaMode)
        try container.encode(flowTypes, forKey: .flowTypes)
        try container.encode(signup, forKey: .signup)
        try container.encode(delivery, forKey: .delivery)
        try container.encode(appAttest, forKey: .appAttest)
        try container.encode(guests, forKey: .guests)
        try methodSettings.encode(to: encoder)
    }
}

/// What sign-up asks a new user for. Only meaningful when the policy opens `signup`.
public struct SignupSettings: Codable, Sendable, Equatable {
    /// Whether sign-up needs an invite code issued by the admin API.
    public var requireInviteCode: Bool
    /// The form fields a new user fills in, in order.
    public var profileFields: [PolicyFormField]
    /// The terms of service (an absolute `http`/`https` URL). When set, sign-up asks the user to
    /// accept them with a consent checkbox.
    public var termsOfServiceURL: String?

    public init(requireInviteCode: Bool = false, profileFields: [PolicyFormField] = [], termsOfServiceURL: String? = nil) {
        self.requireInviteCode = requireInviteCode
        self.profileFields = profileFields
        self.termsOfServiceURL = termsOfServiceURL
    }

    private enum CodingKeys: String, CodingKey { case requireInviteCode, profileFields, termsOfServiceURL }

    /// Decodes settings; missing fields take the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        requireInviteCode = try container.decodeIfPresent(Bool.self, forKey: .requireInviteCode) ?? false
        profileFields = try container.decodeIfPresent([PolicyFormField].self, forKey: .profileFields) ?? []
        termsOfServiceURL = try container.decodeIfPresent(String.self, forKey: .termsOfServiceURL)
    }
}
