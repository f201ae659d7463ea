import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// The guard of ``Caller/metrics``: the metrics token (held in memory, compared by hash in
/// constant time) or the admin token. On the public listener the route exists only where the operator
/// asked for it (``MetricsExposure/onPublicListener``; otherwise `404`, as for any unknown path);
/// on the metrics listener without a metrics token, anyone who reaches the listener passes.
struct MetricsAuthorization: RouterMiddleware {
    typealias Context = KeywayRequestContext
    let exposure: MetricsExposure
    /// Whether the guarded routes are the metrics listener's.
    let onMetricsListener: Bool
    let database: any Database

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard onMetricsListener || exposure.onPublicListener else {
            return HTTPResponses.problem(
                Problem(
                    code: .notFound, status: 404, title: "Not found",
                    detail: "No endpoint matches this path: this server serves its metrics on another listener, or not at all.",
                    action: .abort),
                traceId: context.traceId)
        }
        if onMetricsListener, exposure.token == nil { return try await next(request, context) }
        let presented = AdminAuthorization.bearerToken(request.headers[.authorization])
        // Hashes compared, so neither the token's bytes nor its length show in the time taken.
        if let presented, let token = exposure.token, ConstantTime.equals(sha256Hex(presented), sha256Hex(token)) {
            return try await next(request, context)
        }
        if let presented, try await AdminCredential.verify(presented, in: database) {
            return try await next(request, context)
        }
        var response = HTTPResponses.problem(AdminProblem.unauthorized.problem, traceId: context.traceId)
        response.headers[.wwwAuthenticate] = #"Bearer realm="keyway-metrics""#
        return response
    }
}
