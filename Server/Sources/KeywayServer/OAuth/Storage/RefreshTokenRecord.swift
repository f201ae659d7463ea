/// A refresh token, stored only as its SHA-256 hash.
///
/// Tokens rotate: each refresh spends the presented token and issues its successor. All tokens
/// descending from one authorization code share a family ID, and are revoked together.
struct RefreshTokenRecord: Sendable, Equatable {
    var id: String
    var tokenHash: String
    var familyId: String
    /// The scope granted at sign-in; a refresh can narrow an access token's scope, never this.
    var scope: String
    var applicationId: String
    var userId: String
    var sessionId: String
    /// The code its family was issued from, on the family's first token only (`nil` on its
    /// successors): a replayed code revokes the family.
    var authorizationCodeHash: String?
    var createdAt: Int64
    /// When this token stops being usable: the idle lifetime after its issue, capped by the family's.
    var expiresAt: Int64
    /// The end of the family's absolute lifetime.
    var familyExpiresAt: Int64
    /// When this token was spent by a refresh, and the ID of the token that replaced it.
    var rotatedAt: Int64?
    var successorId: String?
    var revokedAt: Int64?
    /// The thumbprint of the DPoP key the family is bound to, if any.
    var dpopJkt: String? = nil
    /// When the answer carrying this token was handed out; `nil` while it never was (the server
    /// stopped between the rotation's commit and its answer).
    var answeredAt: Int64? = nil
}
