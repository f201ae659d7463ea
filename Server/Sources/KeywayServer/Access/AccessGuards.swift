import Hummingbird

/// The checks the route table runs before a route's handler, chosen by the route's declared
/// ``Caller``: the admin token for ``Caller/admin``, a confidential application holding the role
/// for ``Caller/backend(_:)``. A handler of such a route never authenticates its caller itself.
struct AccessGuards: Sendable {
    let database: any Database
    let clients: ClientAuthenticator

    /// The guard of `caller`, or `nil` when its routes are checked by a shared component.
    func guarding(_ caller: Caller) -> (any RouterMiddleware<KeywayRequestContext>)? {
        switch caller {
        case .admin: AdminAuthorization(database: database)
        case .backend(let role): BackendAuthorization(clients: clients, role: role)
        default: nil
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

    @discardableResult
    func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        table.register(path, method: method, responder: responder, caller: caller)
        return self
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
