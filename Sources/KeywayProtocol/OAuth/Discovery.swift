/// The OpenID Provider metadata served at `/.well-known/openid-configuration`.
public struct DiscoveryDocument: Codable, Sendable, Equatable {
    public var issuer: String
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var jwksUri: String
    public var responseTypesSupported: [String]
    public var subjectTypesSupported: [String]
    public var idTokenSigningAlgValuesSupported: [String]
    public var grantTypesSupported: [String]
    public var codeChallengeMethodsSupported: [String]
    public var tokenEndpointAuthMethodsSupported: [String]
    public var scopesSupported: [String]
    public var claimsSupported: [String]
    /// OpenID Connect UserInfo endpoint.
    public var userinfoEndpoint: String?
    /// RFC 7009 token revocation endpoint.
    public var revocationEndpoint: String?
    /// RFC 7662 token introspection endpoint.
    public var introspectionEndpoint: String?
    /// RFC 9449: the algorithms accepted for DPoP proofs.
    public var dpopSigningAlgValuesSupported: [String]?
    /// RFC 7591 dynamic client registration endpoint.
    public var registrationEndpoint: String?
    /// The JWS algorithms accepted for `client_secret_jwt` and `private_key_jwt` assertions.
    public var tokenEndpointAuthSigningAlgValuesSupported: [String]?

    public init(
        issuer: String, authorizationEndpoint: String, tokenEndpoint: String, jwksUri: String,
        responseTypesSupported: [String], subjectTypesSupported: [String],
        idTokenSigningAlgValuesSupported: [String], grantTypesSupported: [String],
        codeChallengeMethodsSupported: [String], tokenEndpointAuthMethodsSupported: [String],
        scopesSupported: [String], claimsSupported: [String], userinfoEndpoint: String? = nil,
        revocationEndpoint: String? = nil, introspectionEndpoint: String? = nil,
        dpopSigningAlgValuesSupported: [String]? = nil, registrationEndpoint: String? = nil,
        tokenEndpointAuthSigningAlgValuesSupported: [String]? = nil
    ) {
        self.registrationEndpoint = registrationEndpoint
        self.tokenEndpointAuthSigningAlgValuesSupported = tokenEndpointAuthSigningAlgValuesSupported
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.jwksUri = jwksUri
        self.responseTypesSupported = responseTypesSupported
        self.subjectTypesSupported = subjectTypesSupported
        self.idTokenSigningAlgValuesSupported = idTokenSigningAlgValuesSupported
        self.grantTypesSupported = grantTypesSupported
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
        self.scopesSupported = scopesSupported
        self.claimsSupported = claimsSupported
        self.userinfoEndpoint = userinfoEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.introspectionEndpoint = introspectionEndpoint
        self.dpopSigningAlgValuesSupported = dpopSigningAlgValuesSupported
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksUri = "jwks_uri"
        case responseTypesSupported = "response_types_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case grantTypesSupported = "grant_types_supported"
        case registrationEndpoint = "registration_endpoint"
        case tokenEndpointAuthSigningAlgValuesSupported = "token_endpoint_auth_signing_alg_values_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case scopesSupported = "scopes_supported"
        case claimsSupported = "claims_supported"
        case userinfoEndpoint = "userinfo_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
    }
}
