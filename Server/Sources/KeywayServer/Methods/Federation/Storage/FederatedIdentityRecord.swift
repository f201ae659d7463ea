/// An upstream identity linked to a user: keyed by (project, issuer, subject), never by email.
struct FederatedIdentityRecord: Sendable, Equatable {
    var id: String
    var userId: String
    var projectId: String
    /// The provider it came through (its ID in the project).
    var providerId: String
    var issuer: String
    var subject: String
    /// The address the provider gave, normalized, if any.
    var email: String?
    var emailVerified: Bool
    /// The name the provider gave (Apple gives it on the first sign-in only, so it is kept).
    var name: String?
    var picture: String?
    var createdAt: Int64
    var lastUsedAt: Int64
    /// Set when the account's address was proved for the first time after this link was made:
    /// the identity does not sign in until the owner keeps it.
    var heldSince: Int64? = nil
}

/// One authorization request sent to a provider: its state hashed, bound to the flow; the nonce
/// and the PKCE verifier sealed to the flow; single use.
struct FederationStateRecord: Sendable, Equatable {
    var stateHash: String
    var flowId: String
    var providerId: String
    var sealedNonce: String
    var sealedVerifier: String
    var createdAt: Int64
    var expiresAt: Int64
    /// When the callback consumed it.
    var consumedAt: Int64?
    /// What the callback concluded (JSON), so a second delivery answers the same way.
    var outcome: String?
}
