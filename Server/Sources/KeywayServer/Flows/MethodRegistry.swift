import KeywayProtocol

/// The method modules a server runs, in the order steps list them: ``standard`` for the
/// server's own, and any registry a server is configured with (a method added by a test or an
/// embedding app is one line: `MethodRegistry.standard.adding(MyMethod())`). The engine, the
/// routes, policy validation and the admin API all ask the same registry.
struct MethodRegistry: Sendable {
    /// Every module, in order.
    let all: [any FlowMethod]
    /// The texts of every module's notices and account management's.
    let noticeTexts: [String: String]
    private let byId: [FlowMethodID: any FlowMethod]

    init(_ methods: [any FlowMethod]) {
        all = methods
        byId = Dictionary(methods.map { ($0.id, $0) }) { first, _ in first }
        noticeTexts = methods.compactMap { $0 as? any AccountOperationsMethod }.reduce(into: FlowEngine.sessionNotices) {
            texts, method in texts.merge(method.notices) { first, _ in first }
        }
    }

    /// The server's own methods.
    static let standard = MethodRegistry([
        EmailCodeMethod(),
        SMSCodeMethod(),
        SignInLinkMethod(),
        AuthenticatorMethod(),
        // Before the passkey: a reset's new password comes before an offer to make a passkey
        // (a sign-in asks for one such step at most).
        PasswordResetMethod(),
        PasskeyMethod(),
        PasswordMethod(),
        ApprovalMethod(),
        TrustedDeviceMethod(),
    ])

    /// This registry with `method` after its own.
    func adding(_ method: any FlowMethod) -> MethodRegistry { MethodRegistry(all + [method]) }

    /// The module with `id`, if this server has it; `federation:<id>` is the upstream provider `<id>`.
    func module(_ id: FlowMethodID) -> (any FlowMethod)? {
        byId[id] ?? families.lazy.compactMap { $0.member(id) }.first
    }

    /// The methods that act when an account's address is verified: the registered ones that
    /// observe it, and the upstream providers' family (identities linked before are held
    /// whichever provider they came from).
    var addressVerificationObservers: [any AddressVerificationObserver] {
        allIncludingFamilies((any AddressVerificationObserver).self)
    }

    /// The families of methods whose members each application chooses: the upstream providers.
    var families: [any MethodFamily] { [FederationMethod.family] }

    /// The methods that bring identities from elsewhere, the families' included.
    var externalIdentities: [any ExternalIdentityMethod] {
        allIncludingFamilies((any ExternalIdentityMethod).self)
    }

    /// The families whose members the account page manages (the user's linked identities), run
    /// after the registered methods' operations.
    var accountOperationFamilies: [any AccountOperationsMethod] {
        families.compactMap { $0 as? any AccountOperationsMethod }
    }

    /// The methods with a part of the account page, the families' included.
    var accountPageMethods: [any AccountPageMethod] {
        allIncludingFamilies((any AccountPageMethod).self)
    }

    /// The methods the policy configures: the registered ones, and the upstream providers'
    /// family (which providers an application offers).
    var configurableMethods: [any ConfigurableMethod] {
        allIncludingFamilies((any ConfigurableMethod).self)
    }

    /// The types of the settings the configurable methods keep in a policy, each once.
    var settingsTypes: [any MethodSettings.Type] {
        var keys: Set<String> = []
        return configurableMethods.flatMap(\.settings).filter { keys.insert($0.policyKey).inserted }
    }

    /// The modules with the capability `Capability`, in order, then the families that have it.
    func allIncludingFamilies<Capability>(_ capability: Capability.Type) -> [Capability] {
        all(capability) + families.compactMap { $0 as? Capability }
    }

    /// The modules with the capability `Capability`, in order.
    func all<Capability>(_ capability: Capability.Type) -> [Capability] {
        all.compactMap { $0 as? Capability }
    }

    /// The module with `id` if it has the capability `Capability`.
    func module<Capability>(_ id: FlowMethodID, as capability: Capability.Type) -> Capability? {
        module(id) as? Capability
    }

    /// The methods an application may sign in with (``ApplicationPolicy/primaryMethods``).
    var primaryMethods: [AuthenticationMethod] { all((any PrimaryMethod).self).map(\.id) }

    /// The methods an application may ask for as a second factor.
    var secondFactors: [AuthenticationMethod] { all((any SecondFactorMethod).self).map(\.id) }

    /// Whether `id` can be a primary method.
    func canBePrimary(_ id: AuthenticationMethod) -> Bool { module(id, as: (any PrimaryMethod).self) != nil }

    /// Whether `id` can be a second factor.
    func canBeSecondFactor(_ id: AuthenticationMethod) -> Bool { module(id, as: (any SecondFactorMethod).self) != nil }

    /// Whether `id` works for a user who never set it up (a code sent to the identifier).
    func worksWithoutEnrolment(_ id: AuthenticationMethod) -> Bool {
        module(id, as: (any PrimaryMethod).self)?.worksWithoutEnrolment ?? false
    }

    /// The methods and families that prepare outside the flow's transaction before one of theirs
    /// begins (``PreparingMethod``).
    var preparingMethods: [any PreparingMethod] {
        allIncludingFamilies((any PreparingMethod).self)
    }

    /// Whether `id` is a way in a sign-up sets up before the account exists (a password, a
    /// passkey): a user who never signed in can use it only where sign-up is open.
    func isSetUpAtSignUp(_ id: AuthenticationMethod) -> Bool {
        module(id, as: (any PrimaryMethod).self) != nil && module(id, as: (any RequiredAtSignUpMethod).self) != nil
    }

    /// Refuses flow progress whose current stage belongs to a method this server does not have
    /// (written by another release or another configuration).
    func check(_ progress: FlowProgress) throws(UnreadableFlowProgress) {
        if case .method(let active) = progress.stage, module(active.method) == nil {
            throw UnreadableFlowProgress(reason: "A method this release does not have: \(active.method.rawValue).")
        }
    }
}
