import Foundation
import Hummingbird

/// Guards the routes declared ``Caller/user`` and ``Caller/account``: the request's access token
/// must verify (``AccessTokenAuthenticator``), and for ``Caller/account`` have been issued to a
/// first-party application. The signed-in user is handed to the route in
/// ``KeywayRequestContext/user``. Refusals are RFC 6750 §3.1 errors: `401` without a valid token,
/// `403 insufficient_scope` for a third-party client's token on an account route.
///
/// A route declared ``Caller/either(_:_:)`` of ``Caller/account`` and
/// ``Caller/powerAuthSignature`` lets a request with an `X-PowerAuth-Authorization` header and no
/// `Authorization` through untouched: the route verifies that signature over its own URI
/// identifier and body (``PowerAuthSignatureVerifier``), which only it knows.
///
/// On ``Caller/user`` routes a `POST` with a form body and no `Authorization` header may carry
/// the token as its `access_token` parameter (RFC 6750 §2.2, as OpenID Connect's UserInfo allows);
/// such a body is read (up to 16 KiB; a larger one is refused `413`) and handed on unchanged.
struct AccessTokenAuthorization: RouterMiddleware {
    typealias Context = KeywayRequestContext
    let tokens: AccessTokenAuthenticator
    let firstPartyOnly: Bool
    var orPowerAuthSignature = false

    /// The largest form body read for its `access_token`.
    static let maximumFormBody = 16 * 1024

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if orPowerAuthSignature, request.headers[PowerAuthRoutes.authorizationHeader] != nil,
            request.headers[.authorization] == nil
        {
            return try await next(request, context)
        }
        var request = request
        var formToken: String?
        if !firstPartyOnly, request.method == .post, request.headers[.authorization] == nil,
            request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        {
            guard let body = try? await request.collectBody(upTo: Self.maximumFormBody) else {
                var refusal = OAuthFailure.invalidRequest("A form body carrying an access token may be at most 16 KiB.")
                refusal.status = 413
                return HTTPResponses.oauthError(refusal)
            }
            formToken = (try? FormURLEncoded.parse(Data(buffer: body)))?["access_token"]
        }
        let signedIn: SignedInUser
        do {
            signedIn = try await tokens.authenticate(request, formToken: formToken)
            if firstPartyOnly { try await tokens.requireFirstParty(signedIn) }
        } catch let failure as OAuthFailure {
            return HTTPResponses.oauthError(failure)
        }
        var context = context
        context.user = signedIn
        return try await next(request, context)
    }
}
