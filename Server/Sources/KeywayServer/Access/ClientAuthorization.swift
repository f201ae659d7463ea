import Foundation
import Hummingbird

/// Guards the routes declared ``Caller/client`` and ``Caller/confidentialClient`` — the token,
/// revocation, introspection and pushed-authorization endpoints. It reads the request's form
/// (RFC 6749 §3.2: `application/x-www-form-urlencoded`, no parameter twice, at most the context's
/// upload size), authenticates the client as ``ClientAuthenticator`` does (the endpoint's own URL
/// is an accepted assertion audience), and hands the application and the form to the route in
/// ``KeywayRequestContext/client``, so the body is parsed once and no route authenticates anyone.
///
/// Refusals are RFC 6749 §5.2 errors: `400 invalid_request` for a body that is not such a form,
/// `401 invalid_client` for a request that names no client or whose credentials do not
/// authenticate (and, on a confidential client's route, for a public application), `503 temporarily_unavailable`
/// while the database is away.
struct ClientAuthorization: RouterMiddleware {
    typealias Context = KeywayRequestContext
    let clients: ClientAuthenticator
    /// Only confidential applications: ``Caller/confidentialClient``.
    let confidentialOnly: Bool

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let call: ClientCall
        do {
            call = try await authenticate(request, context: context)
        } catch let failure as OAuthFailure {
            return HTTPResponses.oauthError(failure)
        } catch is FlowProblem {
            return HTTPResponses.oauthError(.invalidRequest("The request body is too large."))
        } catch is any TransientDatabaseFailure {
            return HTTPResponses.oauthError(.temporarilyUnavailable)
        }
        var context = context
        context.client = call
        return try await next(request, context)
    }

    private func authenticate(_ request: Request, context: Context) async throws -> ClientCall {
        let form = try await Self.form(of: request, context: context)
        let authorization = request.headers[.authorization]
        guard ClientAuthenticator.presentsCredentials(form: form, authorization: authorization) else {
            // RFC 6749 §5.2 (and RFC 7662 §2.1): a request that names no client at all is
            // `invalid_client`, before anything else of it is looked at.
            throw OAuthFailure.invalidClient(
                confidentialOnly
                    ? "Authenticate as a confidential application (HTTP Basic, client_secret_post or a client assertion)."
                    : "Name the client: client_id, HTTP Basic credentials or a client assertion.",
                usedBasic: false)
        }
        let path = context.endpointPath ?? request.uri.path
        let endpoint = URL(string: clients.issuer() + (path.hasPrefix("/") ? path : "/\(path)"))
        let application = try await clients.authenticate(form: form, authorization: authorization, endpoint: endpoint)
        if confidentialOnly, application.clientType != .confidential {
            throw OAuthFailure.invalidClient(
                "Only confidential applications (an app's backend) may use this endpoint.", usedBasic: authorization != nil)
        }
        return ClientCall(application: application, form: form)
    }

    /// The request's form parameters (RFC 6749 §3.2), or an `invalid_request` refusal.
    static func form(of request: Request, context: Context) async throws -> [String: String] {
        if let contentType = request.headers[.contentType],
            !contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
        {
            throw OAuthFailure.invalidRequest("Send the body as application/x-www-form-urlencoded.")
        }
        let data = try await RequestDecoding.body(request, context: context)
        do {
            return try FormURLEncoded.parse(data)
        } catch {
            switch error {
            case .duplicate(let name): throw OAuthFailure.invalidRequest("The parameter \(name) appears more than once.")
            case .malformed: throw OAuthFailure.invalidRequest("The body is not valid form data.")
            }
        }
    }
}

/// What the guard of a client's route found: the authenticated application and the request's
/// form parameters.
struct ClientCall: Sendable {
    let application: ApplicationRecord
    let form: [String: String]
}
