import Foundation

/// The tokens entry of the secure storage (`keyway.activation.APP.CONFIG_ID.tokens`): the
/// activation they belong to and each token by the app's name for it.
struct StoredTokens: Codable, Sendable, Equatable {
    /// The format of this entry.
    var format = 1
    /// The activation the tokens were made for.
    var activationID: String
    /// The tokens by name.
    var tokens: [String: StoredToken]
}

/// One token: the server's ID, its 16-byte secret, and the factors of the signature that
/// created it.
struct StoredToken: Codable, Sendable, Equatable {
    var tokenID: String
    var secret: Data
    var factors: String
    var createdAt: Date

    func publicToken(name: String) -> PowerAuthToken {
        PowerAuthToken(
            name: name, tokenID: tokenID, factors: PowerAuthSignatureFactors(typeName: factors) ?? .possession, createdAt: createdAt)
    }
}
