import Foundation
import KeywayProtocol

/// The `refresh_token` grant (RFC 6749 §6) with rotation and reuse detection.
///
/// - Each refresh spends the presented token and issues its successor in the same transaction.
/// - A spent token presented again within the application's grace period, while its successor is
///   still the live token, gets that same successor back (with fresh access and ID tokens). The
///   grace period counts from when the client could have seen the successor: when its answer went
///   out. A successor whose answer never went out (the server stopped between the commit and the
///   answer) stays retrievable by a retry for ``unansweredRetryWindow``, across restarts (the
///   successor is derived from its predecessor with a persisted key).
/// - A spent token presented at any other time means two parties hold the family: every token of
///   the family is revoked and the answer is `invalid_grant`.
struct RefreshTokenGrant: TokenGrant {
    let grantType = "refresh_token"
    let metricName = "refresh_token"

    func issue(_ request: TokenRequest, on endpoint: TokenEndpoint) async throws -> TokenResponse {
        try await endpoint.refresh(form: request.form, application: request.application, binding: request.binding)
    }
}

extension TokenEndpoint {
    /// How long a retry of a spent token still gets its successor when the successor's answer never
    /// went out: 15 minutes.
    static let unansweredRetryWindow: Int64 = 15 * 60 * 1000

    fileprivate func refresh(form: [String: String], application: ApplicationRecord, binding: String?) async throws
        -> TokenResponse
    {
        guard let presented = form["refresh_token"], !presented.isEmpty else {
            throw OAuthFailure.invalidRequest("refresh_token is required.")
        }
        let requestedScope = try form["scope"].map(Self.scopeSet)
        let policy = application.refreshTokens ?? tokens.lifetimes.refreshTokens
        let now = clock.now()
        let nowMillis = now.epochMilliseconds
        let graceMillis = Int64((policy.reuseGracePeriod * 1000).rounded())
        let idleMillis = Int64((policy.idleLifetime * 1000).rounded())
        let successorToken = refreshTokens.successor(of: presented)
        let logger = self.logger

        struct Granted: Sendable {
            var subject: TokenIssuer.Subject
            var refreshToken: String
            /// The row of the token handed out, to record that its answer went out.
            var refreshTokenId: String
        }
        let outcome: Result<Granted, OAuthFailure> = try await database.write { repositories in
            guard let record = try await repositories.refreshTokens.find(hash: sha256Hex(presented)) else {
                return .failure(.invalidGrant("The refresh token is invalid."))
            }
            guard record.applicationId == application.id else {
                return .failure(.invalidGrant("The refresh token was issued to another client."))
            }
            guard record.revokedAt == nil else {
                return .failure(.invalidGrant("The refresh token has been revoked."))
            }
            // A bound family is only usable with its key (RFC 9449 §5).
            if let bound = record.dpopJkt, bound != binding {
                return .failure(
                    .invalidDPoPProof(
                        binding == nil
                            ? "The refresh token is bound to a DPoP key: send a DPoP proof."
                            : "The DPoP proof's key is not the key the refresh token is bound to."))
            }
            guard let user = try await repositories.users.find(id: record.userId), user.blockedAt == nil,
                let session = try await repositories.sessions.find(id: record.sessionId), session.revokedAt == nil
            else {
                return .failure(.invalidGrant("The sign-in behind this refresh token has ended."))
            }
            var grantedScope = record.scope
            if let requestedScope {
                guard requestedScope.isSubset(of: Set(record.scope.split(separator: " ").map(String.init))) else {
                    return .failure(.invalidScope("The requested scope exceeds the scope granted at sign-in."))
                }
                grantedScope = requestedScope.sorted().joined(separator: " ")
            }

            let issuedToken: String
            let issuedTokenId: String
            if let rotatedAt = record.rotatedAt {
                // A spent token. Only the grace case may continue.
                var successor: RefreshTokenRecord?
                if let successorId = record.successorId {
                    successor = try await repositories.refreshTokens.find(id: successorId)
                }
                let withinGrace: Bool
                if let answeredAt = successor?.answeredAt {
                    withinGrace = nowMillis - answeredAt <= graceMillis
                } else {
                    // The successor's answer never went out: a retry comes from a client that did
                    // not get it, and gets it now.
                    withinGrace = nowMillis - rotatedAt <= max(graceMillis, Self.unansweredRetryWindow)
                }
                guard withinGrace, let successor, successor.revokedAt == nil,
                    successor.rotatedAt == nil, nowMillis < successor.expiresAt
                else {
                    // The whole sign-in ends: the family's refresh tokens and, through its session,
                    // every access token issued from it (UserInfo, introspection, /v1/me and
                    // account management all check the session).
                    try await repositories.refreshTokens.revokeFamily(record.familyId, at: nowMillis)
                    try await repositories.sessions.revoke(id: record.sessionId, at: nowMillis)
                    metrics.refreshReuseDetected()
                    logger.warning(
                        "refresh token reused after rotation; token family and session revoked",
                        metadata: ["family": "\(record.familyId)", "client": "\(application.configId)"])
                    return .failure(
                        .invalidGrant("The refresh token was already used. Every token of its sign-in has been revoked."))
                }
                issuedToken = successorToken
                issuedTokenId = successor.id
            } else {
                guard nowMillis < record.expiresAt else {
                    return .failure(.invalidGrant("The refresh token has expired."))
                }
                let successorId = SecureRandom.identifier(prefix: "rt")
                try await repositories.refreshTokens.insert(
                    RefreshTokenRecord(
                        id: successorId, tokenHash: sha256Hex(successorToken), familyId: record.familyId,
                        scope: record.scope, applicationId: record.applicationId, userId: record.userId,
                        sessionId: record.sessionId, authorizationCodeHash: nil,
                        createdAt: nowMillis, expiresAt: min(nowMillis + idleMillis, record.familyExpiresAt),
                        familyExpiresAt: record.familyExpiresAt, rotatedAt: nil, successorId: nil, revokedAt: nil,
                        dpopJkt: record.dpopJkt))
                try await repositories.refreshTokens.markRotated(id: record.id, successorId: successorId, at: nowMillis)
                issuedToken = successorToken
                issuedTokenId = successorId
            }
            return .success(
                Granted(
                    subject: TokenIssuer.Subject(
                        userId: user.id, email: user.email, emailVerified: user.emailVerified, phoneNumber: user.verifiedPhone,
                        clientId: application.configId, sessionId: session.id, authTime: session.authTime,
                        amr: session.amr, scope: grantedScope, dpopJkt: binding, isAnonymous: user.isAnonymous),
                    refreshToken: issuedToken, refreshTokenId: issuedTokenId))
        }
        let granted = try outcome.get()
        let response = try tokenResponse(
            for: granted.subject, refreshToken: granted.refreshToken, now: now, idTokenAlgorithm: application.idTokenAlgorithm)
        // The answer goes out now: from here the client could have seen the successor, and the
        // grace period for a retry counts from this moment.
        try await database.write { try await $0.refreshTokens.markAnswered(id: granted.refreshTokenId, at: nowMillis) }
        return response
    }

    /// Splits a scope parameter (RFC 6749 §3.3); an empty or malformed one is `invalid_scope`.
    static func scopeSet(_ scope: String) throws -> Set<String> {
        let parts = scope.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(Self.isScopeCharacter) }) else {
            throw OAuthFailure.invalidScope("The scope parameter is malformed.")
        }
        return Set(parts)
    }

    /// `%x21 / %x23-5B / %x5D-7E` (RFC 6749 §3.3).
    private static func isScopeCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue else { return false }
        return ascii == 0x21 || (0x23...0x5B).contains(ascii) || (0x5D...0x7E).contains(ascii)
    }
}
