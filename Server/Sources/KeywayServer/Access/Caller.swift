/// Who may call a route. Every route declares one where it is registered
/// (``RouteTable/declaring(_:)``), the route table keeps the declarations (`docs/routes.md` is
/// generated from them), and a class with a guard (``AccessGuards``) is checked before the route's
/// handler runs, never in it.
indirect enum Caller: Sendable, Hashable {
    /// Anyone. What such a request can make the server keep is bounded (`docs/server.md`).
    case anyone
    /// The holder of a flow: its ID in the path (128 random bits), a sign-in link's token, or the
    /// provider's `state` of its federation step, and the device proofs its step asks for.
    case flow
    /// A browser on the hosted pages: its visit cookie, and on every `POST` the page's form token
    /// and the server's own `Origin`.
    case browser
    /// A browser signed in on the hosted pages (its session cookie), and the form token and origin.
    case browserSession
    /// A user's access token of the project (`Bearer`, or `DPoP` with a proof); what it reads
    /// follows its scopes.
    case user
    /// A user's access token issued to one of the project's own (first-party) applications: the
    /// routes of the user's own account (devices, sessions, profile changes, activation codes),
    /// which a third-party client's token never reaches.
    case account
    /// A trusted device: a signature by the key it enrolled, over the request and a recent time.
    case deviceKey
    /// A client of the project, authenticated as at the token endpoint (secret, assertion, or a
    /// public client's ID alone where the grant allows it).
    case client
    /// A confidential client of the project, authenticated as at the token endpoint (an app's
    /// backend, or a registered server-side client): a request without client credentials, or a
    /// public client's, is refused.
    case confidentialClient
    /// The holder of an initial access token for dynamic client registration (RFC 7591 §3).
    case registrant
    /// An app's backend: a confidential application holding the role (``BackendRole``).
    case backend(BackendRole)
    /// The admin token.
    case admin
    /// A metrics scraper: the metrics token or the admin token, where the route is served at all
    /// (``MetricsExposure``).
    case metrics
    /// A PowerAuth device before or outside an activation: requests sealed or signed with the
    /// application's key and secret.
    case powerAuthApplication
    /// An activated PowerAuth device: its signature (`X-PowerAuth-Authorization`) with the
    /// factors the route needs.
    case powerAuthSignature
    /// A dev-mode server only (the route does not exist otherwise); anyone on it.
    case devMode
    /// Either of two callers.
    case either(Caller, Caller)

    /// The class as `docs/routes.md` names it.
    var name: String {
        switch self {
        case .anyone: "anyone"
        case .flow: "flow"
        case .browser: "browser"
        case .browserSession: "browser session"
        case .user: "user token"
        case .account: "account token (first-party application)"
        case .deviceKey: "trusted device"
        case .client: "client"
        case .confidentialClient: "confidential client"
        case .registrant: "registration token"
        case .backend(let role): "backend (`\(role.rawValue)`)"
        case .admin: "admin"
        case .metrics: "metrics token or admin"
        case .powerAuthApplication: "PowerAuth application"
        case .powerAuthSignature: "PowerAuth signature"
        case .devMode: "dev mode"
        case .either(let first, let second): "\(first.name) or \(second.name)"
        }
    }

    /// The check the route table runs before a route of the class (``AccessGuards``): for the
    /// classes whose proof is in the request's headers, or in a form body every route of the class
    /// reads the same way. The others' proofs are bound to the state the route reads in its own
    /// transaction (a flow, a visit) or to its body and URI identifier (a PowerAuth signature, a
    /// device signature), and are checked by the one shared component every route of the class
    /// goes through (``checkedBy``): for those, `nil`.
    var guardKind: GuardKind? {
        switch self {
        case .admin: .admin
        case .metrics: .metrics
        case .backend(let role): .backend(role)
        case .user: .accessToken(firstPartyOnly: false, orPowerAuthSignature: false)
        case .account: .accessToken(firstPartyOnly: true, orPowerAuthSignature: false)
        case .either(.account, .powerAuthSignature): .accessToken(firstPartyOnly: true, orPowerAuthSignature: true)
        case .client: .client(confidentialOnly: false)
        case .confidentialClient: .client(confidentialOnly: true)
        default: nil
        }
    }

    /// Whether the route table checks the class before the route runs.
    var isGuarded: Bool { guardKind != nil }

    /// The route table's checks, one per guarded class (``guardKind``).
    enum GuardKind: Sendable, Hashable {
        /// The admin token (``AdminAuthorization``).
        case admin
        /// The metrics token or the admin token, where metrics are served (``MetricsAuthorization``).
        case metrics
        /// A confidential application holding the role (``BackendAuthorization``).
        case backend(BackendRole)
        /// A user's access token (``AccessTokenAuthorization``).
        case accessToken(firstPartyOnly: Bool, orPowerAuthSignature: Bool)
        /// A client's credentials and form (``ClientAuthorization``).
        case client(confidentialOnly: Bool)
    }

    /// Where the class is checked: by the route table's guard before the handler, or by the one
    /// shared component every route of the class goes through.
    var checkedBy: String {
        switch self {
        case .anyone, .devMode: "—"
        case .flow: "the flow engine (`FlowEngine.load`: the flow's ID, a sign-in link's token, a provider's `state`)"
        case .browser, .browserSession: "the hosted pages (`HostedLogin`: visit, session, form token, origin)"
        case .user: "route table guard (`AccessTokenAuthorization`: access token, DPoP)"
        case .account: "route table guard (`AccessTokenAuthorization`: access token, DPoP, first-party application)"
        case .deviceKey: "`ApprovalService` (device signature)"
        case .client: "route table guard (`ClientAuthorization`: form body, client credentials)"
        case .confidentialClient: "route table guard (`ClientAuthorization`: form body, a confidential client's credentials)"
        case .registrant: "`RegistrationEndpoint` (initial access token)"
        case .backend: "route table guard (`BackendAuthorization`)"
        case .admin: "route table guard (`AdminAuthorization`)"
        case .metrics: "route table guard (`MetricsAuthorization`: served on the public listener only with `--metrics-on-public-listener`)"
        case .powerAuthApplication: "the PowerAuth services (application key, ECIES, keystore JWT)"
        case .powerAuthSignature: "`PowerAuthSignatureVerifier`"
        case .either(let first, let second): "\(first.checkedBy); \(second.checkedBy)"
        }
    }
}
