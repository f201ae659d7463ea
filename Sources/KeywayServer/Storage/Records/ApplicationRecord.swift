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
}
