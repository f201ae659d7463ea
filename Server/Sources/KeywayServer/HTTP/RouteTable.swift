import HTTPTypes
import Hummingbird
import KeywayProtocol

/// The server's router, remembering which methods each path answers. Once every route is in,
/// ``answerOtherMethods()`` makes each other method on a known path answer `405 Method Not
/// Allowed` with an `Allow` header (RFC 9110 §15.5.6), instead of the `404` of an unknown path, in
/// the error format of the path's family: RFC 6749 §5.2 JSON under `/oauth2/`, a problem document
/// elsewhere. `HEAD` is answered wherever `GET` is (the router generates it). A path may answer
/// `OPTIONS` itself (``options(_:_:)``, for CORS preflight), with the path's `Allow` list.
final class RouteTable: RouterMethods {
    typealias Context = KeywayRequestContext
    /// An `OPTIONS` handler, given the path's `Allow` list.
    typealias OptionsHandler = @Sendable (Request, Context, _ allow: String) async throws -> Response

    let router: Router<Context>
    private var paths: [(path: RouterPath, methods: Set<HTTPRequest.Method>)] = []
    private var optionsHandlers: [String: OptionsHandler] = [:]
    /// Who may call each route, by `METHOD /path`.
    private(set) var callers: [String: Caller] = [:]
    /// Routes registered without a declaration (`METHOD /path`); a test keeps this empty.
    private(set) var undeclared: [String] = []
    /// The checks run before the routes of the classes that have one; set before any such route
    /// is registered.
    var guards: AccessGuards?

    init() {
        router = Router(context: Context.self, options: .autoGenerateHeadEndpoints)
    }

    /// Every path a route was registered on (`/v1/flows/{flowId}`), with the methods its routes
    /// answer: neither the `405` answers nor the `HEAD` the router generates wherever `GET` is.
    /// The OpenAPI document describes exactly these.
    var registeredRoutes: [(path: String, methods: Set<HTTPRequest.Method>)] {
        paths.map { ($0.path.description, $0.methods) }
    }

    /// The routes registered through the answer may be called by `caller`: every route is
    /// registered through one (`router.declaring(.admin).group("admin").get(…)`).
    func declaring(_ caller: Caller) -> DeclaredRoutes {
        DeclaredRoutes(table: self, caller: caller)
    }

    /// A route registered without a declaration: served, but listed in ``undeclared``, which a
    /// test keeps empty.
    @discardableResult
    func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == Context {
        register(path, method: method, responder: responder, caller: nil)
        return self
    }

    /// Registers a route with its declared caller, behind the caller's guard when it has one, and
    /// behind `outside` (which sees the guard's refusals) when given.
    func register<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder, caller: Caller?,
        outside: (any RouterMiddleware<Context>)? = nil
    ) where Responder.Context == Context {
        let key = "\(method.rawValue) \(path.description)"
        remember(method, on: path)
        guard let caller else {
            undeclared.append(key)
            router.on(path, method: method, responder: responder)
            return
        }
        callers[key] = caller
        guard caller.isGuarded else {
            on(path, method: method, responder: responder, outside: outside)
            return
        }
        guard let guarding = guards?.guarding(caller) else {
            preconditionFailure("\(key) is declared \(caller.name), but the route table has no guards yet.")
        }
        on(path, method: method, responder: GuardedResponder(guarding: guarding, inner: responder), outside: outside)
    }

    private func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder,
        outside: (any RouterMiddleware<Context>)?
    ) where Responder.Context == Context {
        if let outside {
            router.on(path, method: method, responder: GuardedResponder(guarding: outside, inner: responder))
        } else {
            router.on(path, method: method, responder: responder)
        }
    }

    /// Answers `OPTIONS` on `path` with `handler` (a CORS preflight, which anyone may send),
    /// registered with the `405` answers once the path's other methods are known
    /// (``answerOtherMethods()``).
    func options(_ path: RouterPath, _ handler: @escaping OptionsHandler) {
        remember(.options, on: path)
        callers["OPTIONS \(path.description)"] = .anyone
        optionsHandlers[path.description] = handler
    }

    private func remember(_ method: HTTPRequest.Method, on path: RouterPath) {
        if let index = paths.firstIndex(where: { $0.path.description == path.description }) {
            paths[index].methods.insert(method)
        } else {
            paths.append((path, [method]))
        }
    }

    @discardableResult
    func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        router.add(middleware: middleware)
        return self
    }

    /// `QUERY` (a safe method with a body, an IETF draft), which the HTTP parser accepts.
    static let query = HTTPRequest.Method("QUERY")!

    /// Registers the `OPTIONS` handlers and the `405` answers; call after every route is in.
    func answerOtherMethods() {
        let candidates: [HTTPRequest.Method] = [
            .get, .head, .post, .put, .patch, .delete, .options, .trace, .connect, Self.query,
        ]
        for (path, methods) in paths {
            var allowed = methods
            if allowed.contains(.get) { allowed.insert(.head) }
            let allow = candidates.filter(allowed.contains).map(\.rawValue).joined(separator: ", ")
            let oauth = path.description.hasPrefix("/oauth2/")
            if let handler = optionsHandlers[path.description] {
                router.on(path, method: .options) { request, context in try await handler(request, context, allow) }
            }
            for method in candidates where !allowed.contains(method) {
                router.on(path, method: method, responder: MethodNotAllowedResponder(allow: allow, oauth: oauth))
            }
        }
    }
}

/// `405` for a known path with another method.
struct MethodNotAllowedResponder: HTTPResponder {
    typealias Context = KeywayRequestContext
    let allow: String
    let oauth: Bool

    func respond(to request: Request, context: Context) throws -> Response {
        let detail = "\(request.uri.path) does not accept \(request.method.rawValue); it accepts \(allow)."
        var response: Response
        if oauth {
            var failure = OAuthFailure.invalidRequest(detail)
            failure.status = 405
            response = HTTPResponses.oauthError(failure)
        } else {
            response = HTTPResponses.problem(
                Problem(code: .methodNotAllowed, status: 405, title: "Method not allowed", detail: detail, action: .abort),
                traceId: context.traceId)
        }
        response.headers[.allow] = allow
        return response
    }
}
