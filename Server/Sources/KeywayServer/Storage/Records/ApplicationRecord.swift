import KeywayProtocol

/// An application of a project. Its config ID is its OAuth `client_id`.
struct ApplicationRecord: Sendable, Equatable {
    enum ClientType: String, Sendable {
        /// The SDK may redeem authorization codes itself (with PKCE).
        case `public`
        /// Codes can be redeemed only with the client secret, from the app's backend.
        case confidential
    }

    var id: String
    var projectId: String
    var configId: String
    var name: String
    var clientType: ClientType
    /// SHA-256 of the client secret (secrets are 256-bit random tokens).
    var clientSecretHash: String?
    var flowTypes: Set<FlowType>
    /// Whether a verified identifier without a user creates one.
    var autoCreateUsers: Bool
    var isDev: Bool
    var createdAt: Int64
    /// The application's own refresh token policy; `nil` uses the server's.
    var refreshTokens: RefreshTokenPolicy? = nil
    /// Whether tokens are bound to a DPoP key.
    var dpop: DPoPPolicy = DPoPPolicy()
    /// The registered client authentication method; `nil` for applications registered without
    /// one (public: `none`; confidential: `client_secret_basic` or `client_secret_post`).
    var authMethod: ClientAuthMethod? = nil
    /// The only JWS algorithm the client's assertions may use, when registered.
    var assertionAlgorithm: String? = nil
    /// For `client_secret_jwt` clients: the salt the client secret is derived from.
    var clientSecretSalt: String? = nil
    /// For `private_key_jwt` clients: the client's public keys.
    var jwks: JSONWebKeySet? = nil
    /// The grant types the client may use; `nil` allows all of the server's.
    var grantTypes: Set<String>? = nil
    /// The template a dynamically registered client was created from.
    var templateId: String? = nil
    /// The algorithm its ID tokens are signed with (`id_token_signed_response_alg`): `RS256` unless
    /// chosen otherwise, the default OpenID Connect Core §3.1.3.7 and Dynamic Client Registration
    /// 1.0 §2 give every relying party (an application stored before the choice existed reads as
    /// `ES256`, what it always had).
    var idTokenAlgorithm: SigningAlgorithm = .rs256
    /// The scopes the application may ask for; `nil` allows every scope the server supports.
    var allowedScopes: Set<String>? = nil
    /// Whether `/oauth2/authorize` accepts only pushed authorization requests (RFC 9126) for it.
    var requirePAR = false
    /// Whether a confidential client's authorization request must carry PKCE or, instead, a
    /// `nonce` (RFC 9700 §2.1.1); `false` accepts neither, for relying parties that send neither.
    /// A public client always needs PKCE.
    var requirePkce = true
    /// Made by the project's administrators: its users are not asked for consent. Dynamically
    /// registered clients are not first-party.
    var firstParty = true
    /// What the administrators let it do as an app's backend (``BackendRole``).
    var backendRoles: Set<BackendRole> = []
    /// The logo and pages a dynamically registered client named; `nil` when it named none.
    var links: ClientLinks? = nil
}
