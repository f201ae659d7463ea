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
struct AccessTokenAuthorization: RouterMiddleware {
    typealias Context = KeywayRequestContext
    let tokens: AccessTokenAuthenticator
    let firstPartyOnly: Bool
    var orPowerAuthSignature = false

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if orPowerAuthSignature, request.headers[PowerAuthRoutes.authorizationHeader] != nil,
            request.headers[.authorization] == nil
        {
            return try await next(request, context)
        }
        let signedIn: SignedInUser
        do {
            signedIn = try await tokens.authenticate(request)
            if firstPartyOnly { try await tokens.requireFirstParty(signedIn) }
        } catch let failure as OAuthFailure {
            return HTTPResponses.oauthError(failure)
        }
        var context = context
        context.user = signedIn
        return try await next(request, context)
    }
}
