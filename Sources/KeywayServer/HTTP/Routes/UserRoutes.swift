import Foundation
import Hummingbird
import KeywayProtocol
import Logging

/// Endpoints a signed-in user reaches with an access token (RFC 6750 `Authorization: Bearer`):
/// the OpenID Connect UserInfo endpoint and "sign out everywhere".
struct UserRoutes {
    let database: any Database
    let clock: any ServerClock
    let issuer: @Sendable () -> String
    let accessTokens: AccessTokenVerifier
    let logger: Logger

    func register(on router: Router<KeywayRequestContext>) {
        let userInfo: @Sendable (Request, KeywayRequestContext) async throws -> Response = { request, _ in
            do {
                let (claims, user) = try await authenticate(request)
                let includesEmail = claims.scopes.contains("email")
                return try HTTPResponses.json(
                    UserInfo(
                        subject: user.id, email: includesEmail ? user.email : nil,
                        emailVerified: includesEmail ? user.emailVerified : nil))
            } catch let failure as OAuthFailure {
                return HTTPResponses.oauthError(failure)
            }
        }
        router.get("oauth2/userinfo", use: userInfo)
        router.post("oauth2/userinfo", use: userInfo)

        // Sign out everywhere: every session and refresh token of the user, in every app.
        router.delete("v1/me/sessions") { request, _ in
            do {
                let (_, user) = try await authenticate(request)
                let now = clock.now().epochMilliseconds
                try await database.write { repositories in
                    try await repositories.refreshTokens.revokeAll(userId: user.id, at: now)
                    try await repositories.sessions.revokeAll(userId: user.id, at: now)
                }
                logger.notice("signed out everywhere", metadata: ["user": "\(user.id)"])
                return Response(status: .noContent, headers: [.cacheControl: "no-store"])
            } catch let failure as OAuthFailure {
                return HTTPResponses.oauthError(failure)
            }
        }
    }

    /// The bearer token's verified claims and its user; RFC 6750 §3.1 errors otherwise.
    private func authenticate(_ request: Request) async throws -> (AccessTokenClaims, UserRecord) {
        guard let header = request.headers[.authorization] else {
            throw OAuthFailure.missingBearer
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw OAuthFailure.invalidToken("Send the access token as Authorization: Bearer TOKEN.", status: 400)
        }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        let issuer = issuer()
        let verified: (AccessTokenClaims, UserRecord)? = try await database.read { repositories in
            guard let claims = try await accessTokens.verifyActive(token, issuer: issuer, in: repositories),
                let user = try await repositories.users.find(id: claims.subject)
            else { return nil }
            return (claims, user)
        }
        guard let verified else {
            throw OAuthFailure.invalidToken("The access token is invalid, expired or revoked.", status: 401)
        }
        return verified
    }
}
