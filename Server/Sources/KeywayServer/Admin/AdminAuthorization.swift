import Hummingbird
import HTTPTypes
import KeywayProtocol

/// Guards every `/admin/*` route: the request needs `Authorization: Bearer ADMIN_TOKEN`.
/// The presented token's hash is compared in constant time with the stored hash
/// (``AdminCredential``); a missing or wrong token is answered `401` `admin_unauthorized`.
///
/// Admin route files add their routes to the group ``group(on:database:)`` returns: routes declared
/// ``Caller/admin``, which the route table puts behind this check (``AccessGuards``). The request
/// log never prints headers, so the token stays out of logs.
struct AdminAuthorization: RouterMiddleware {
    typealias Context = KeywayRequestContext
    let database: any Database

    /// The `/admin` route group: routes declared ``Caller/admin``, behind the admin token check.
    static func group(on router: RouteTable) -> RouterGroup<KeywayRequestContext> {
        router.declaring(.admin).group("admin")
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let token = Self.bearerToken(request.headers[.authorization]),
            try await AdminCredential.verify(token, in: database)
        else {
            var response = HTTPResponses.problem(AdminProblem.unauthorized.problem, traceId: context.traceId)
            response.headers[.wwwAuthenticate] = #"Bearer realm="keyway-admin""#
            return response
        }
        return try await next(request, context)
    }

    /// The token of an `Authorization: Bearer TOKEN` header.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
