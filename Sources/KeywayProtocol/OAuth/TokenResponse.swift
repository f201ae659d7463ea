/// A successful answer of the token endpoint (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3).
public struct TokenResponse: Codable, Sendable, Equatable {
    /// The access token, a JWT (RFC 9068).
    public var accessToken: Sensitive<String>
    /// `Bearer` (or `DPoP` for bound tokens).
    public var tokenType: String
    /// Lifetime of the access token in seconds.
    public var expiresIn: Int
    /// The OpenID Connect ID token.
    public var idToken: Sensitive<String>?
    /// The refresh token (opaque).
    public var refreshToken: Sensitive<String>?
    /// The granted scope, space separated.
    public var scope: String?
    /// For a token exchange (RFC 8693 §2.2.1): the type of ``accessToken``,
    /// `urn:ietf:params:oauth:token-type:access_token`.
    public var issuedTokenType: String?

    /// Creates a token response with the given values.
    ///
    /// - Parameters:
    ///   - accessToken: The access token.
    ///   - tokenType: `Bearer`, or `DPoP` for a bound token.
    ///   - expiresIn: Lifetime of the access token in seconds.
    ///   - idToken: The OpenID Connect ID token, if any.
    ///   - refreshToken: The refresh token, if any.
    ///   - scope: The granted scope, space separated.
    ///   - issuedTokenType: For a token exchange, the type of the access token.
    public init(
        accessToken: Sensitive<String>, tokenType: String, expiresIn: Int, idToken: Sensitive<String>?,
        refreshToken: Sensitive<String>?, scope: String?, issuedTokenType: String? = nil
    ) {
        self.issuedTokenType = issuedTokenType
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.scope = scope
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case scope
        case issuedTokenType = "issued_token_type"
    }
}

/// An error answer of an OAuth endpoint (RFC 6749 §5.2).
public struct OAuthErrorResponse: Codable, Sendable, Equatable, Error {
    /// The error code: `invalid_request`, `invalid_client`, `invalid_grant`, `unauthorized_client`,
    /// `unsupported_grant_type`, `invalid_scope`.
    public var error: String
    /// A sentence for the developer.
    public var errorDescription: String?

    /// Creates an OAuth error answer with the given values.
    ///
    /// - Parameters:
    ///   - error: The error code (`invalid_grant`).
    ///   - errorDescription: A sentence for the developer.
    public init(error: String, errorDescription: String?) {
        self.error = error
        self.errorDescription = errorDescription
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
