/// The first refresh token of a new family: what a sign-in's code, token exchange and a new guest
/// earn when their scope holds `offline_access`. The token and its lifetimes (the application's
/// refresh-token policy, or the server's, from `now`) are drawn before the write transaction that
/// stores it, so a transaction run again stores the same token.
struct RefreshTokenFamily: Sendable {
    /// The token the family starts with, if the scope earns one.
    let candidate: String
    /// When the first token lapses unless it is used (the idle lifetime, within the family's).
    let expiresAt: Int64
    /// When the family ends, however often it is refreshed.
    let familyExpiresAt: Int64
    /// When it starts.
    let now: Int64

    init(policy: RefreshTokenPolicy, now: Int64) {
        self.candidate = RefreshTokenDerivation.root()
        self.now = now
        self.familyExpiresAt = now + Int64((policy.absoluteLifetime * 1000).rounded())
        self.expiresAt = min(now + Int64((policy.idleLifetime * 1000).rounded()), familyExpiresAt)
    }

    /// The scope `application` is granted of `scope`: without `offline_access` for a client that
    /// gets no refresh tokens.
    static func scope(_ scope: String, grantedTo application: ApplicationRecord) -> String {
        TokenEndpoint.issuesRefreshTokens(to: application) ? scope : TokenEndpoint.withoutOfflineAccess(scope)
    }

    /// Stores the family's first token when `scope` holds `offline_access`.
    ///
    /// - Returns: The token to answer with, or `nil` when the scope earns none.
    func start(
        scope: String, applicationId: String, userId: String, sessionId: String, authorizationCodeHash: String?,
        binding: String?, in repositories: Repositories
    ) async throws -> String? {
        guard scope.split(separator: " ").contains("offline_access") else { return nil }
        try await repositories.refreshTokens.insert(
            record(
                scope: scope, applicationId: applicationId, userId: userId, sessionId: sessionId,
                authorizationCodeHash: authorizationCodeHash, binding: binding))
        return candidate
    }

    /// The stored record of the family's first token.
    func record(
        scope: String, applicationId: String, userId: String, sessionId: String, authorizationCodeHash: String?,
        binding: String?
    ) -> RefreshTokenRecord {
        let id = SecureRandom.identifier(prefix: "rt")
        return RefreshTokenRecord(
            id: id, tokenHash: sha256Hex(candidate), familyId: id, scope: scope, applicationId: applicationId,
            userId: userId, sessionId: sessionId, authorizationCodeHash: authorizationCodeHash, createdAt: now,
            expiresAt: expiresAt, familyExpiresAt: familyExpiresAt, rotatedAt: nil, successorId: nil, revokedAt: nil,
            dpopJkt: binding)
    }
}
