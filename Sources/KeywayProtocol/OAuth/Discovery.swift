/// The OpenID Provider metadata served at `/.well-known/openid-configuration` (OpenID Connect
/// Discovery 1.0 §3), and as authorization server metadata at `/.well-known/oauth-authorization-server`
/// (RFC 8414 §2). Members the server does not send are `nil`.
public struct DiscoveryDocument: Codable, Sendable, Equatable {
    /// The issuer URL, the `iss` of every token the server signs.
    public var issuer: String
    /// The authorization endpoint.
    public var authorizationEndpoint: String
    /// The token endpoint.
    public var tokenEndpoint: String
    /// Where the server's signing keys are published, as a ``JSONWebKeySet``.
    public var jwksUri: String
    /// The response types the server supports.
    public var responseTypesSupported: [String]
    /// The subject identifier types the server supports (`public`).
    public var subjectTypesSupported: [String]
    /// The algorithms the server signs ID tokens with (`RS256`, `ES256`).
    public var idTokenSigningAlgValuesSupported: [String]
    /// The grant types the server supports.
    public var grantTypesSupported: [String]
    /// The PKCE code challenge methods the server supports (`S256`).
    public var codeChallengeMethodsSupported: [String]
    /// The ways a client may authenticate at the token endpoint.
    public var tokenEndpointAuthMethodsSupported: [String]
    /// The scopes the server supports.
    public var scopesSupported: [String]
    /// The claims the server may put in ID tokens and UserInfo answers.
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
    /// RFC 8414: the ways a client may authenticate at the revocation endpoint.
    public var revocationEndpointAuthMethodsSupported: [String]?
    /// RFC 8414: the JWS algorithms accepted for client assertions at the revocation endpoint.
    public var revocationEndpointAuthSigningAlgValuesSupported: [String]?
    /// RFC 8414: the ways a client may authenticate at the introspection endpoint.
    public var introspectionEndpointAuthMethodsSupported: [String]?
    /// RFC 8414: the JWS algorithms accepted for client assertions at the introspection endpoint.
    public var introspectionEndpointAuthSigningAlgValuesSupported: [String]?
    /// The `response_mode` values the authorization endpoint supports.
    public var responseModesSupported: [String]?
    /// The `prompt` values the authorization endpoint supports.
    public var promptValuesSupported: [String]?
    /// OpenID Connect RP-Initiated Logout: where a relying party sends the user to sign out.
    public var endSessionEndpoint: String?
    /// Whether the authorization endpoint accepts `request_uri` (OpenID Connect Discovery's
    /// default, when absent, is `true`).
    public var requestURIParameterSupported: Bool?
    /// RFC 9126: the pushed authorization request endpoint.
    public var pushedAuthorizationRequestEndpoint: String?
    /// RFC 9126: whether every authorization request must be pushed (some clients may still be
    /// required to push theirs).
    public var requirePushedAuthorizationRequests: Bool?
    /// RFC 9207: whether authorization responses carry the `iss` parameter.
    public var authorizationResponseIssParameterSupported: Bool?
    /// The languages of the user interface (BCP 47 tags).
    public var uiLocalesSupported: [String]?
    /// Whether the authorization endpoint accepts request objects by value (`request`).
    public var requestParameterSupported: Bool?
    /// Whether the authorization endpoint accepts the `claims` parameter.
    public var claimsParameterSupported: Bool?
    /// The authentication context classes (`acr`) ID tokens may name.
    public var acrValuesSupported: [String]?

    /// Creates a discovery document with the given values.
    ///
    /// - Parameters:
    ///   - issuer: The issuer URL.
    ///   - authorizationEndpoint: The authorization endpoint.
    ///   - tokenEndpoint: The token endpoint.
    ///   - jwksUri: Where the signing keys are published.
    ///   - responseTypesSupported: The supported response types.
    ///   - subjectTypesSupported: The supported subject identifier types.
    ///   - idTokenSigningAlgValuesSupported: The algorithms ID tokens are signed with.
    ///   - grantTypesSupported: The supported grant types.
    ///   - codeChallengeMethodsSupported: The supported PKCE methods.
    ///   - tokenEndpointAuthMethodsSupported: The supported client authentication methods.
    ///   - scopesSupported: The supported scopes.
    ///   - claimsSupported: The supported claims.
    ///   - userinfoEndpoint: The UserInfo endpoint, if any.
    ///   - revocationEndpoint: The revocation endpoint, if any.
    ///   - introspectionEndpoint: The introspection endpoint, if any.
    ///   - dpopSigningAlgValuesSupported: The algorithms accepted for DPoP proofs, if DPoP is supported.
    ///   - registrationEndpoint: The dynamic client registration endpoint, if any.
    ///   - tokenEndpointAuthSigningAlgValuesSupported: The algorithms accepted for client assertions, if any.
    ///   - revocationEndpointAuthMethodsSupported: The client authentication methods of the revocation endpoint, if listed.
    ///   - revocationEndpointAuthSigningAlgValuesSupported: The assertion algorithms of the revocation endpoint, if listed.
    ///   - introspectionEndpointAuthMethodsSupported: The client authentication methods of the introspection endpoint, if listed.
    ///   - introspectionEndpointAuthSigningAlgValuesSupported: The assertion algorithms of the introspection endpoint, if listed.
    ///   - responseModesSupported: The supported response modes, if listed.
    ///   - promptValuesSupported: The supported `prompt` values, if listed.
    ///   - endSessionEndpoint: The RP-initiated logout endpoint, if any.
    ///   - requestURIParameterSupported: Whether `request_uri` is accepted, if stated.
    ///   - pushedAuthorizationRequestEndpoint: The pushed authorization request endpoint, if any.
    ///   - requirePushedAuthorizationRequests: Whether every authorization request must be pushed, if stated.
    ///   - authorizationResponseIssParameterSupported: Whether authorization responses carry `iss`, if stated.
    ///   - uiLocalesSupported: The languages of the user interface, if listed.
    ///   - requestParameterSupported: Whether `request` is accepted, if stated.
    ///   - claimsParameterSupported: Whether `claims` is accepted, if stated.
    ///   - acrValuesSupported: The authentication context classes ID tokens may name, if listed.
    public init(
        issuer: String, authorizationEndpoint: String, tokenEndpoint: String, jwksUri: String,
        responseTypesSupported: [String], subjectTypesSupported: [String],
        idTokenSigningAlgValuesSupported: [String], grantTypesSupported: [String],
        codeChallengeMethodsSupported: [String], tokenEndpointAuthMethodsSupported: [String],
        scopesSupported: [String], claimsSupported: [String], userinfoEndpoint: String? = nil,
        revocationEndpoint: String? = nil, introspectionEndpoint: String? = nil,
        dpopSigningAlgValuesSupported: [String]? = nil, registrationEndpoint: String? = nil,
        tokenEndpointAuthSigningAlgValuesSupported: [String]? = nil,
        revocationEndpointAuthMethodsSupported: [String]? = nil,
        revocationEndpointAuthSigningAlgValuesSupported: [String]? = nil,
        introspectionEndpointAuthMethodsSupported: [String]? = nil,
        introspectionEndpointAuthSigningAlgValuesSupported: [String]? = nil, responseModesSupported: [String]? = nil,
        promptValuesSupported: [String]? = nil, endSessionEndpoint: String? = nil,
        requestURIParameterSupported: Bool? = nil, pushedAuthorizationRequestEndpoint: String? = nil,
        requirePushedAuthorizationRequests: Bool? = nil, authorizationResponseIssParameterSupported: Bool? = nil,
        uiLocalesSupported: [String]? = nil, requestParameterSupported: Bool? = nil,
        claimsParameterSupported: Bool? = nil, acrValuesSupported: [String]? = nil
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
        self.revocationEndpointAuthMethodsSupported = revocationEndpointAuthMethodsSupported
        self.revocationEndpointAuthSigningAlgValuesSupported = revocationEndpointAuthSigningAlgValuesSupported
        self.introspectionEndpointAuthMethodsSupported = introspectionEndpointAuthMethodsSupported
        self.introspectionEndpointAuthSigningAlgValuesSupported = introspectionEndpointAuthSigningAlgValuesSupported
        self.responseModesSupported = responseModesSupported
        self.promptValuesSupported = promptValuesSupported
        self.endSessionEndpoint = endSessionEndpoint
        self.requestURIParameterSupported = requestURIParameterSupported
        self.pushedAuthorizationRequestEndpoint = pushedAuthorizationRequestEndpoint
        self.requirePushedAuthorizationRequests = requirePushedAuthorizationRequests
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
        self.uiLocalesSupported = uiLocalesSupported
        self.requestParameterSupported = requestParameterSupported
        self.claimsParameterSupported = claimsParameterSupported
        self.acrValuesSupported = acrValuesSupported
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
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case revocationEndpointAuthSigningAlgValuesSupported = "revocation_endpoint_auth_signing_alg_values_supported"
        case introspectionEndpointAuthMethodsSupported = "introspection_endpoint_auth_methods_supported"
        case introspectionEndpointAuthSigningAlgValuesSupported = "introspection_endpoint_auth_signing_alg_values_supported"
        case responseModesSupported = "response_modes_supported"
        case promptValuesSupported = "prompt_values_supported"
        case endSessionEndpoint = "end_session_endpoint"
        case requestURIParameterSupported = "request_uri_parameter_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case uiLocalesSupported = "ui_locales_supported"
        case requestParameterSupported = "request_parameter_supported"
        case claimsParameterSupported = "claims_parameter_supported"
        case acrValuesSupported = "acr_values_supported"
    }
}
