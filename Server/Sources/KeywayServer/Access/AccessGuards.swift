import Hummingbird

/// The checks the route table runs before a route's handler, chosen by the route's declared
/// ``Caller``: the admin token for ``Caller/admin``, the metrics or admin token for
/// ``Caller/metrics``, a confidential application holding the role
/// for ``Caller/backend(_:)``, a user's access token for ``Caller/user``, one of a first-party
/// application for ``Caller/account``, a client's credentials and form for ``Caller/client`` and
/// ``Caller/confidentialClient``. A handler of such a route never authenticates its caller
/// itself: it reads what the guard found from its context.
struct AccessGuards: Sendable {
    let database: any Database
    let clients: ClientAuthenticator
    let tokens: AccessTokenAuthenticator
    /// Where the metrics are served and to whom.
    var metrics = MetricsExposure()
    /// Whether the routes are the metrics listener's (``MetricsAuthorization``).
    var onMetricsListener = false

    /// The guard of `caller`, or `nil` when its routes are checked by a shared component
    /// (``Caller/checkedBy``).
    func guarding(_ caller: Caller) -> (any RouterMiddleware<KeywayRequestContext>)? {
        guard let kind = caller.guardKind else { return nil }
        return switch kind {
        case .admin: AdminAuthorization(database: database)
        case .metrics: MetricsAuthorization(exposure: metrics, onMetricsListener: onMetricsListener, database: database)
        case .backend(let role): BackendAuthorization(clients: clients, role: role)
        case .accessToken(let firstPartyOnly, let orPowerAuthSignature):
            AccessTokenAuthorization(
                tokens: tokens, firstPartyOnly: firstPartyOnly, orPowerAuthSignature: orPowerAuthSignature)
        case .client(let confidentialOnly): ClientAuthorization(clients: clients, confidentialOnly: confidentialOnly)
        }
    }
}

/// A route's responder behind its guard.
struct GuardedResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == KeywayRequestContext {
    let guarding: any RouterMiddleware<KeywayRequestContext>
    let inner: Inner

    func respond(to request: Request, context: KeywayRequestContext) async throws -> Response {
        try await guarding.handle(request, context: context) { request, context in
            try await inner.respond(to: request, context: context)
        }
    }
}

/// The routes registered through it carry its ``Caller``: ``RouteTable/declaring(_:)``.
struct DeclaredRoutes: RouterMethods {
    typealias Context = KeywayRequestContext
    let table: RouteTable
    let caller: Caller
    /// Runs outside the guard, so it sees the guard's refusals too (``answeredThrough(_:)``).
    var outside: (any RouterMiddleware<KeywayRequestContext>)?

    @discardableResult
    func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        table.register(path, method: method, responder: responder, caller: caller, outside: outside)
        return self
    }

    /// The same declaration, its routes' answers — a guard's refusals included — passing through
    /// `middleware` (the CORS headers of an endpoint a browser reads, say).
    func answeredThrough(_ middleware: any RouterMiddleware<KeywayRequestContext>) -> DeclaredRoutes {
        var routes = self
        routes.outside = middleware
        return routes
    }

    /// Routes declared for another caller, on the same table.
    func declaring(_ caller: Caller) -> DeclaredRoutes {
        table.declaring(caller)
    }

    /// Middleware belongs to a group (`group(_:)`), not to a declaration.
    func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        preconditionFailure("Add middleware to a group of declared routes, not to the declaration.")
    }

    /// Answers `OPTIONS` on `path` (a CORS preflight, which anyone may send).
    func options(_ path: RouterPath, _ handler: @escaping RouteTable.OptionsHandler) {
        table.options(path, handler)
    }
}
