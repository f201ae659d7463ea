/// The answer of the dynamic client registration endpoint (RFC 7591 §3.2.1): the new client's
/// credentials and the metadata registered for it.
public struct ClientRegistrationResponse: Codable, Sendable, Equatable {
    /// The new client's ID: a config ID.
    public var clientID: String
    /// When the client ID was issued, in seconds since 1970.
    public var clientIdIssuedAt: Int
    /// The client secret, for the `client_secret_basic`, `client_secret_post` and
    /// `client_secret_jwt` methods. Shown once.
    public var clientSecret: Sensitive<String>?
    /// `0`: the secret does not expire. Present with a secret.
    public var clientSecretExpiresAt: Int?
    /// The client's name, as registered.
    public var clientName: String
    /// `none`, `client_secret_basic`, `client_secret_post`, `client_secret_jwt` or `private_key_jwt`.
    public var tokenEndpointAuthMethod: String
    /// The only algorithm the client's assertions may use, when registered.
    public var tokenEndpointAuthSigningAlg: String?
    /// The grant types the client may use (`authorization_code`, `refresh_token`).
    public var grantTypes: [String]
    /// The response types the client may use (`code`).
    public var responseTypes: [String]
    /// The client's public keys, for `private_key_jwt`.
    public var jwks: JSONWebKeySet?
    /// The algorithm the client's ID tokens are signed with: `RS256` (the default) or `ES256`.
    public var idTokenSignedResponseAlg: String?
    /// Where authorization responses may be sent, as registered.
    public var redirectUris: [String]?
    /// Where a browser may be sent after signing out, as registered.
    public var postLogoutRedirectUris: [String]?
    /// The scopes the client may ask for, space-separated.
    public var scope: String?
    /// The client's logo (`logo_uri`), as registered.
    public var logoUri: String?
    /// The client's home page (`client_uri`), as registered.
    public var clientUri: String?
    /// How the client uses the user's data (`policy_uri`), as registered.
    public var policyUri: String?
    /// The client's terms of service (`tos_uri`), as registered.
    public var tosUri: String?

    /// Creates a registration answer with the given values.
    ///
    /// - Parameters:
    ///   - clientID: The new client's ID.
    ///   - clientIdIssuedAt: When the client ID was issued, in seconds since 1970.
    ///   - clientSecret: The client secret, for the secret-based methods.
    ///   - clientSecretExpiresAt: `0` with a secret; `nil` without one.
    ///   - clientName: The client's name.
    ///   - tokenEndpointAuthMethod: How the client authenticates at the token endpoint.
    ///   - tokenEndpointAuthSigningAlg: The only algorithm the client's assertions may use, if registered.
    ///   - grantTypes: The grant types the client may use.
    ///   - responseTypes: The response types the client may use.
    ///   - jwks: The client's public keys, for `private_key_jwt`.
    ///   - idTokenSignedResponseAlg: The algorithm the client's ID tokens are signed with.
    ///   - redirectUris: The registered redirect URIs, if any.
    ///   - postLogoutRedirectUris: The registered post-logout redirect URIs, if any.
    ///   - scope: The scopes the client may ask for, space-separated.
    ///   - logoUri: The client's logo, as registered.
    ///   - clientUri: The client's home page, as registered.
    ///   - policyUri: The client's privacy policy, as registered.
    ///   - tosUri: The client's terms of service, as registered.
    public init(
        clientID: String, clientIdIssuedAt: Int, clientSecret: Sensitive<String>?, clientSecretExpiresAt: Int?,
        clientName: String, tokenEndpointAuthMethod: String, tokenEndpointAuthSigningAlg: String?,
        grantTypes: [String], responseTypes: [String], jwks: JSONWebKeySet?, idTokenSignedResponseAlg: String? = nil,
        redirectUris: [String]? = nil, postLogoutRedirectUris: [String]? = nil, scope: String? = nil,
        logoUri: String? = nil, clientUri: String? = nil, policyUri: String? = nil, tosUri: String? = nil
    ) {
        self.clientID = clientID
        self.clientIdIssuedAt = clientIdIssuedAt
        self.clientSecret = clientSecret
        self.clientSecretExpiresAt = clientSecretExpiresAt
        self.clientName = clientName
        self.tokenEndpointAuthMethod = tokenEndpointAuthMethod
        self.tokenEndpointAuthSigningAlg = tokenEndpointAuthSigningAlg
        self.grantTypes = grantTypes
        self.responseTypes = responseTypes
        self.jwks = jwks
        self.idTokenSignedResponseAlg = idTokenSignedResponseAlg
        self.redirectUris = redirectUris
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.scope = scope
        self.logoUri = logoUri
        self.clientUri = clientUri
        self.policyUri = policyUri
        self.tosUri = tosUri
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientIdIssuedAt = "client_id_issued_at"
        case clientSecret = "client_secret"
        case clientSecretExpiresAt = "client_secret_expires_at"
        case clientName = "client_name"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case tokenEndpointAuthSigningAlg = "token_endpoint_auth_signing_alg"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case jwks
        case idTokenSignedResponseAlg = "id_token_signed_response_alg"
        case redirectUris = "redirect_uris"
        case postLogoutRedirectUris = "post_logout_redirect_uris"
        case scope
        case logoUri = "logo_uri"
        case clientUri = "client_uri"
        case policyUri = "policy_uri"
        case tosUri = "tos_uri"
    }
}
