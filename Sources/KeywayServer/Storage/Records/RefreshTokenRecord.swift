/// A refresh token, stored only as its SHA-256 hash.
struct RefreshTokenRecord: Sendable, Equatable {
    var id: String
    var tokenHash: String
    var applicationId: String
    var userId: String
    var sessionId: String
    /// The code it was issued from, so a replayed code can revoke it.
    var authorizationCodeHash: String?
    var createdAt: Int64
    var expiresAt: Int64
    var revokedAt: Int64?
}
