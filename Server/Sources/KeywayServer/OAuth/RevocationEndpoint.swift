import Foundation
import KeywayProtocol
import Logging

/// `POST /oauth2/revoke`: token revocation (RFC 7009).
///
/// - A refresh token revokes its whole family and its sign-in session, so access tokens of that
///   sign-in stop being accepted by `userinfo` and introspection too.
/// - An access token is put on the revocation list until it would have expired.
/// - An unknown, expired or malformed token answers 200 as well (RFC 7009 §2.2): the caller's goal
///   is reached and nothing about the token is revealed.
/// - A token issued to another client is refused with `unauthorized_client`.
struct RevocationEndpoint: Sendable {
    let database: any Database
    let clock: any ServerClock
    let issuer: @Sendable () -> String
    let accessTokens: AccessTokenVerifier
    let logger: Logger

    /// Revokes the token of `call`'s form for its client (authenticated by the route's guard,
    /// ``ClientAuthorization``).
    func handle(_ call: ClientCall) async throws {
        let application = call.application
        guard let token = call.form["token"], !token.isEmpty else {
            throw OAuthFailure.invalidRequest("token is required.")
        }
        let now = clock.now().epochMilliseconds
        // `token_type_hint` only orders the lookups; both kinds are tried (RFC 7009 §2.1). An
        // access token signed by a key this instance has not read yet (an emergency rotation on
        // another instance) has the keys read again, as at introspection.
        if let claims = try await accessTokens.verifyWithCurrentKeys(token, issuer: issuer()) {
            guard claims.clientId == application.configId else {
                throw OAuthFailure.unauthorizedClient("The token was issued to another client.")
            }
            try await database.write { repositories in
                try await repositories.revokedAccessTokens.insert(
                    jti: claims.tokenId, expiresAt: claims.expiresAt * 1000, revokedAt: now)
            }
            return
        }
        let outcome: Result<Void, OAuthFailure> = try await database.write { repositories in
            guard let record = try await repositories.refreshTokens.find(hash: sha256Hex(token)) else {
                return .success(())
            }
            guard record.applicationId == application.id else {
                return .failure(.unauthorizedClient("The token was issued to another client."))
            }
            try await repositories.refreshTokens.revokeFamily(record.familyId, at: now)
            try await repositories.sessions.revoke(id: record.sessionId, at: now)
            return .success(())
        }
        try outcome.get()
    }
}
