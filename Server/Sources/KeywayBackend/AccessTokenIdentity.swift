import Foundation

/// Who a verified Keyway access token speaks for.
public struct AccessTokenIdentity: Sendable, Equatable {
    /// The user ID (`sub`).
    public var userId: String
    /// The application the token was issued to (`client_id`).
    public var clientId: String
    /// The sign-in session (`sid`).
    public var sessionId: String
    /// The granted scopes.
    public var scopes: Set<String>
    /// The token's ID (`jti`).
    public var tokenId: String
    public var expiresAt: Date
    /// The thumbprint of the DPoP key the token is bound to (`cnf.jkt`), if it is bound.
    public var dpopKeyThumbprint: String?
    /// Whether the token was issued to a guest (`"is_anonymous": true`): an account without an
    /// identifier. The claim is the token's; `introspect(_:)` tells whether the user is a guest
    /// now (a guest that signed up is not, even with its earlier tokens).
    public var isAnonymous: Bool

    public init(
        userId: String, clientId: String, sessionId: String, scopes: Set<String>, tokenId: String, expiresAt: Date,
        dpopKeyThumbprint: String?, isAnonymous: Bool = false
    ) {
        self.userId = userId
        self.clientId = clientId
        self.sessionId = sessionId
        self.scopes = scopes
        self.tokenId = tokenId
        self.expiresAt = expiresAt
        self.dpopKeyThumbprint = dpopKeyThumbprint
        self.isAnonymous = isAnonymous
    }
}
