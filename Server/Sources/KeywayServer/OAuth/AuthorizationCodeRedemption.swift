import KeywayJOSE
import Logging

/// Redeeming an authorization code, as the token endpoint and the PowerAuth activation by a
/// Keyway sign-in do: single use (any attempt uses the code up; a replay revokes what the code
/// issued), the client it was issued to, its expiry, PKCE, the redirect URI, and a live session.
enum AuthorizationCodeRedemption {
    struct Redeemed: Sendable {
        let code: AuthorizationCodeRecord
        let user: UserRecord
        let session: SessionRecord
    }

    /// Redeems the code whose hash is `codeHash` for `applicationId`, in the caller's write
    /// transaction; the refusal is returned so that the use of the code commits. A code issued for
    /// a PKCE challenge needs its `verifier`; one issued without must come with none (RFC 9700
    /// §2.1.1: a verifier then means someone is trying a downgrade).
    static func redeem(
        codeHash: String, verifier: String?, redirectURI: String?, applicationId: String, now: Int64,
        in repositories: Repositories, logger: Logger
    ) async throws -> Result<Redeemed, OAuthFailure> {
        guard let record = try await repositories.authorizationCodes.find(hash: codeHash) else {
            return .failure(.invalidGrant("The authorization code is invalid."))
        }
        if record.usedAt != nil {
            // A replayed code: revoke everything issued from it (RFC 6749 §4.1.2).
            try await repositories.refreshTokens.revokeIssued(fromCodeHash: codeHash, at: now)
            try await repositories.sessions.revoke(id: record.sessionId, at: now)
            logger.warning("authorization code replayed; issued tokens revoked", metadata: ["session": "\(record.sessionId)"])
            return .failure(.invalidGrant("The authorization code was already used."))
        }
        // Any attempt uses the code up, so a wrong verifier cannot be retried.
        try await repositories.authorizationCodes.markUsed(hash: codeHash, at: now)
        guard record.applicationId == applicationId else {
            return .failure(.invalidGrant("The authorization code was issued to another client."))
        }
        guard now < record.expiresAt else {
            return .failure(.invalidGrant("The authorization code has expired."))
        }
        if record.codeChallenge == AuthorizationCodeRecord.noChallenge {
            guard verifier == nil else {
                return .failure(.invalidGrant("The code was issued without a code_challenge: send no code_verifier."))
            }
        } else {
            guard let verifier else {
                return .failure(.invalidRequest("code_verifier is required: the code was issued for a PKCE challenge."))
            }
            guard PKCE.verify(verifier: verifier, challenge: record.codeChallenge) else {
                return .failure(.invalidGrant("The code verifier does not match the code challenge."))
            }
        }
        // RFC 6749 §4.1.3: the redirect_uri of the authorization request, repeated exactly.
        if let expected = record.redirectURI, redirectURI != expected {
            return .failure(.invalidGrant("redirect_uri must be the one the authorization request was sent with."))
        }
        guard let user = try await repositories.users.find(id: record.userId),
            let session = try await repositories.sessions.find(id: record.sessionId), session.revokedAt == nil
        else { return .failure(.invalidGrant("The session behind this code no longer exists.")) }
        return .success(Redeemed(code: record, user: user, session: session))
    }
}
