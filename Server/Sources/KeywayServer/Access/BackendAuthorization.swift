import Hummingbird

/// Guards the routes declared ``Caller/backend(_:)``: the caller authenticates as a confidential
/// application with HTTP Basic (as at the token endpoint; a client assertion is not read here,
/// the bodies are JSON) and must hold the route's ``BackendRole``, which only the project's
/// administrator grants. The application is handed to the route in
/// ``KeywayRequestContext/backend``. Refusals are RFC 6749 §5.2 errors: `401 invalid_client`
/// without valid credentials or for a public application, `403 unauthorized_client` without the
/// role, `503 temporarily_unavailable` while the database is away.
struct BackendAuthorization: RouterMiddleware {
    typealias Context = KeywayRequestContext
    let clients: ClientAuthenticator
    let role: BackendRole

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let application: ApplicationRecord
        do {
            application = try await authenticate(request.headers[.authorization])
        } catch let failure as OAuthFailure {
            return HTTPResponses.oauthError(failure)
        } catch is any TransientDatabaseFailure {
            return HTTPResponses.oauthError(.temporarilyUnavailable)
        }
        var context = context
        context.backend = application
        return try await next(request, context)
    }

    private func authenticate(_ authorization: String?) async throws -> ApplicationRecord {
        guard authorization != nil else {
            throw OAuthFailure.invalidClient("Authenticate as a confidential application with HTTP Basic.", usedBasic: false)
        }
        let caller = try await clients.authenticate(form: [:], authorization: authorization)
        guard caller.clientType == .confidential else {
            throw OAuthFailure.invalidClient(
                "Only confidential applications (an app's backend) may use these endpoints.", usedBasic: true)
        }
        guard caller.backendRoles.contains(role) else {
            var refusal = OAuthFailure.unauthorizedClient(
                "This application does not hold the \(role.rawValue) backend role; the project's administrator grants it (PATCH /admin/applications/{configId}).")
            refusal.status = 403
            throw refusal
        }
        return caller
    }
}
