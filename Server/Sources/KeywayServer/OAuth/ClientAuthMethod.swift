/// Client authentication methods at the token, revocation and introspection endpoints
/// (RFC 6749 §2.3, RFC 7523 §2.2, OpenID Connect Core §9), as RFC 7591 names them.
enum ClientAuthMethod: String, Sendable, CaseIterable {
    /// A public client: no authentication, PKCE only.
    case none
    /// The client secret in HTTP Basic credentials.
    case clientSecretBasic = "client_secret_basic"
    /// The client secret as the `client_secret` form parameter.
    case clientSecretPost = "client_secret_post"
    /// A JWT assertion signed with HS256 keyed by the client secret.
    case clientSecretJWT = "client_secret_jwt"
    /// A JWT assertion signed with the client's private key (ES256 or RS256).
    case privateKeyJWT = "private_key_jwt"

    /// The assertion algorithms the method accepts.
    var assertionAlgorithms: [String] {
        switch self {
        case .clientSecretJWT: ["HS256"]
        case .privateKeyJWT: JWKSignatures.supportedAlgorithms
        default: []
        }
    }
}
