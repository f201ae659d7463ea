/// The OpenID Connect UserInfo answer (OpenID Connect Core §5.3.2).
public struct UserInfo: Codable, Sendable, Equatable {
    /// The user ID, the same `sub` as in the ID token.
    public var subject: String
    /// The email address, when the access token's scope includes `email`.
    public var email: String?
    /// Whether the email address was verified.
    public var emailVerified: Bool?

    public init(subject: String, email: String?, emailVerified: Bool?) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
    }

    enum CodingKeys: String, CodingKey {
        case subject = "sub"
        case email
        case emailVerified = "email_verified"
    }
}

/// The answer of the token introspection endpoint (RFC 7662 §2.2). Only `active` is present for a
/// token that is not active.
public struct IntrospectionResponse: Codable, Sendable, Equatable {
    public var active: Bool
    public var scope: String?
    public var clientId: String?
    public var subject: String?
    /// An access token's type (RFC 6749 §5.1): `Bearer`, or `DPoP` for a token bound to a key.
    /// Absent for a refresh token.
    public var tokenType: String?
    public var expiresAt: Int?
    public var issuedAt: Int?
    public var issuer: String?
    public var sessionId: String?
    public var tokenId: String?
    /// `cnf` (RFC 7800): the DPoP key thumbprint a bound token is tied to.
    public var confirmation: Confirmation?

    /// The `cnf` member of a bound token.
    public struct Confirmation: Codable, Sendable, Equatable {
        /// RFC 9449 §6.1: the JWK SHA-256 thumbprint.
        public var jkt: String

        public init(jkt: String) { self.jkt = jkt }
    }

    public init(
        active: Bool, scope: String? = nil, clientId: String? = nil, subject: String? = nil, tokenType: String? = nil,
        expiresAt: Int? = nil, issuedAt: Int? = nil, issuer: String? = nil, sessionId: String? = nil,
        tokenId: String? = nil, confirmation: Confirmation? = nil
    ) {
        self.active = active
        self.scope = scope
        self.clientId = clientId
        self.subject = subject
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.issuer = issuer
        self.sessionId = sessionId
        self.tokenId = tokenId
        self.confirmation = confirmation
    }

    /// The answer for any token that is unknown, expired, revoked or not the caller's to see.
    public static let inactive = IntrospectionResponse(active: false)

    enum CodingKeys: String, CodingKey {
        case active, scope
        case clientId = "client_id"
        case subject = "sub"
        case tokenType = "token_type"
        case expiresAt = "exp"
        case issuedAt = "iat"
        case issuer = "iss"
        case sessionId = "sid"
        case tokenId = "jti"
        case confirmation = "cnf"
    }
}
