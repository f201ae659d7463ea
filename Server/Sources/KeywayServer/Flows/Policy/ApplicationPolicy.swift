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
    /// Password rules, for applications offering ``AuthenticationMethod/password``.
    public var password: PasswordSettings
    /// Where messages are delivered, per channel.
    public var delivery: DeliverySettings
    /// Trusted devices and approvals.
    public var devices: DeviceTrustSettings
    /// Apple App Attest: which proofs of a genuine app instance the application asks for.
    public var appAttest: AppAttestSettings
    /// The project's upstream identity providers the application offers (`federation:<id>`).
    public var federation: FederationSettings
    /// Sign-in links, for applications offering ``AuthenticationMethod/signInLink``; `nil` takes
    /// the defaults (email, the server's own page).
    public var signInLink: SignInLinkSettings?
    /// Guests: whether the application makes them, how long one never upgraded is kept, and how
    /// many one client network may make per hour.
    public var guests: GuestSettings = GuestSettings()
    /// Passkeys, for applications offering ``AuthenticationMethod/passkey``; `nil` takes the
    /// defaults (the issuer's host as relying party, user verification required).
    public var passkeys: PasskeySettings?

    public init(
        primaryMethods: [AuthenticationMethod], mfaMethods: [AuthenticationMethod] = [], mfaMode: MFAMode = .off,
        flowTypes: [FlowType] = [.signin], signup: SignupSettings = SignupSettings(),
        password: PasswordSettings = PasswordSettings(), delivery: DeliverySettings = DeliverySettings(),
        devices: DeviceTrustSettings = DeviceTrustSettings(), appAttest: AppAttestSettings = AppAttestSettings(),
        federation: FederationSettings = FederationSettings()
    ) {
        self.federation = federation
        self.devices = devices
        self.appAttest = appAttest
        self.primaryMethods = primaryMethods
        self.mfaMethods = mfaMethods
        self.mfaMode = mfaMode
        self.flowTypes = flowTypes
        self.signup = signup
        self.password = password
        self.delivery = delivery
        self.signInLink = nil
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
        case primaryMethods, mfaMethods, mfaMode, flowTypes, signup, password, delivery, devices, appAttest, federation
        case signInLink, guests, passkeys
    }

    /// Decodes a policy. Only `primaryMethods` is required; the other fields default to the
    /// values of ``init(primaryMethods:mfaMethods:mfaMode:flowTypes:signup:password:delivery:devices:appAttest:federation:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        primaryMethods = try container.decode([AuthenticationMethod].self, forKey: .primaryMethods)
        mfaMethods = try container.decodeIfPresent([AuthenticationMethod].self, forKey: .mfaMethods) ?? []
        mfaMode = try container.decodeIfPresent(MFAMode.self, forKey: .mfaMode) ?? .off
        flowTypes = try container.decodeIfPresent([FlowType].self, forKey: .flowTypes) ?? [.signin]
        signup = try container.decodeIfPresent(SignupSettings.self, forKey: .signup) ?? SignupSettings()
        password = try container.decodeIfPresent(PasswordSettings.self, forKey: .password) ?? PasswordSettings()
        delivery = try container.decodeIfPresent(DeliverySettings.self, forKey: .delivery) ?? DeliverySettings()
        devices = try container.decodeIfPresent(DeviceTrustSettings.self, forKey: .devices) ?? DeviceTrustSettings()
        appAttest = try container.decodeIfPresent(AppAttestSettings.self, forKey: .appAttest) ?? AppAttestSettings()
        federation = try container.decodeIfPresent(FederationSettings.self, forKey: .federation) ?? FederationSettings()
        signInLink = try container.decodeIfPresent(SignInLinkSettings.self, forKey: .signInLink)
        guests = try container.decodeIfPresent(GuestSettings.self, forKey: .guests) ?? GuestSettings()
        passkeys = try container.decodeIfPresent(PasskeySettings.self, forKey: .passkeys)
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
