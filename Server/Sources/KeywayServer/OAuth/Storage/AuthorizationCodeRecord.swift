/// An authorization code, stored only as its SHA-256 hash.
struct AuthorizationCodeRecord: Sendable, Equatable {
    var codeHash: String
    var applicationId: String
    var userId: String
    var sessionId: String
    var flowId: String
    /// The S256 PKCE challenge, or ``noChallenge`` for a code whose authorization request had none.
    var codeChallenge: String
    var expiresAt: Int64
    var usedAt: Int64?
    var createdAt: Int64
    /// The scope the code may be redeemed for; `nil` for a sign-in's code (the sign-in scope). A
    /// code from account management carries the scope of the access token that opened it.
    var scope: String? = nil
    /// The `nonce` of the authorization request, which the ID token carries.
    var nonce: String? = nil
    /// The `redirect_uri` of the authorization request; the token request must repeat it
    /// (RFC 6749 §4.1.3).
    var redirectURI: String? = nil

    /// The stored challenge of a code issued without PKCE (a confidential client that sent a
    /// nonce instead): its redemption must carry no `code_verifier` (RFC 9700 §2.1.1).
    static let noChallenge = ""
}
