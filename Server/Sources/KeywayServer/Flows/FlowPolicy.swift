import KeywayProtocol

/// What the flow engine needs to know of an application's policy: which methods sign a user in,
/// when a second factor is required, which flows are open and what sign-up collects.
struct FlowPolicy: Sendable, Equatable {
    /// Methods that sign a user in, in the order they are offered.
    var primaryMethods: [AuthenticationMethod] = [.emailOtp]
    /// Methods that count as a second factor.
    var mfaMethods: [AuthenticationMethod] = []
    var mfaMode: MFAMode = .off
    var flowTypes: Set<FlowType> = [.signin]
    /// Sign-up needs an invitation code.
    var requireInviteCode = false
    /// The fields sign-up collects, in the order they are shown.
    var profileFields: [Field] = []
    /// When set, sign-up asks the user to accept the terms at this address.
    var termsOfServiceURL: String? = nil
    /// Accounts are created on a first verified email or SMS code of a sign-in: for applications
    /// that create users (the dev application, those of the admin API) while `signup` is closed.
    /// With `signup` open, accounts come from sign-ups only.
    var autoCreateUsers = false
    /// App Attest.
    var appAttest = AppAttestSettings()
    /// Guests.
    var guests = GuestSettings()
    /// Each method's settings, as the policy holds them (``MethodSettings``); each method's
    /// folder gives the engine's view of them (`passkeys`, `devices`, …).
    var methodSettings = MethodSettingsTable()

    /// Whether `method` signs users in or counts as a second factor here.
    func lists(_ method: AuthenticationMethod) -> Bool {
        primaryMethods.contains(method) || mfaMethods.contains(method)
    }
    /// Whether the project's backend receives events (`approval.requested`).
    var sendsEvents = false
    /// The application's own email texts (`delivery.emailTemplates`), if it has any.
    var emailTemplates: EmailTemplates?

    init(
        primaryMethods: [AuthenticationMethod] = [.emailOtp], flowTypes: Set<FlowType> = [.signin],
        autoCreateUsers: Bool = false
    ) {
        self.primaryMethods = primaryMethods
        self.flowTypes = flowTypes
        self.autoCreateUsers = autoCreateUsers
    }

    /// The engine's view of a stored policy.
    init(_ policy: ApplicationPolicy, application: ApplicationRecord) {
        primaryMethods = policy.primaryMethods
        appAttest = policy.appAttest
        mfaMethods = policy.mfaMethods
        mfaMode = policy.mfaMode
        flowTypes = Set(policy.flowTypes)
        requireInviteCode = policy.signup.requireInviteCode
        profileFields = policy.signup.profileFields.map(\.field)
        termsOfServiceURL = policy.signup.termsOfServiceURL
        autoCreateUsers = application.autoCreateUsers && !flowTypes.contains(.signup)
        sendsEvents = policy.delivery.events != nil
        emailTemplates = policy.delivery.emailTemplates
        guests = policy.guests
        methodSettings = policy.methodSettings
    }

    /// The policy of an application without a stored one: email codes only, as the application row says.
    static func defaults(for application: ApplicationRecord) -> FlowPolicy {
        FlowPolicy(
            flowTypes: application.flowTypes,
            autoCreateUsers: application.autoCreateUsers && !application.flowTypes.contains(.signup))
    }

    /// Whether sign-up shows a form (profile fields or the terms of service).
    var hasSignupForm: Bool { !profileFields.isEmpty || termsOfServiceURL != nil }
}
