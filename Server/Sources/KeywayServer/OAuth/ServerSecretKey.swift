import Crypto
import Foundation

/// A 256-bit server secret (HMAC keys for one-time codes and refresh tokens): generated once
/// and persisted under its name.
enum ServerSecretKey {
    /// Keys one-time code hashes.
    static let oneTimeCodes = "otp_hmac_key"
    /// Derives rotated refresh tokens from their predecessors.
    static let refreshTokens = "refresh_token_key"
    /// Authenticates DPoP nonces.
    static let dpopNonces = "dpop_nonce_key"
    /// Derives the secrets of `client_secret_jwt` clients.
    static let clientSecrets = "client_secret_key"
    /// Seals authenticator secrets and other secrets kept at rest.
    static let sealedSecrets = "sealed_secret_key"

    /// Every secret kept sealed under the master key.
    static let all = [oneTimeCodes, refreshTokens, dpopNonces, clientSecrets, sealedSecrets]

    /// The name a secret is sealed under (the additional data of its sealing).
    static func sealingName(_ name: String) -> String { "server_secret:\(name)" }

    /// Loads the secret `name`, opening it with `masterKey`, or creates and stores it sealed.
    static func loadOrCreate(named name: String, in database: any Database, now: Date, masterKey: MasterKey)
        async throws -> SymmetricKey
    {
        try await database.write { repositories in
            if let stored = try await repositories.keys.secret(named: name) {
                guard let raw = Data(base64Encoded: try masterKey.open(stored, name: sealingName(name))) else {
                    throw StorageError(description: "The server secret \(name) is unreadable.")
                }
                return SymmetricKey(data: raw)
            }
            let raw = Data(SecureRandom.bytes(32))
            try await repositories.keys.insertSecret(
                named: name, value: try masterKey.seal(raw.base64EncodedString(), name: sealingName(name)),
                createdAt: now.epochMilliseconds)
            return SymmetricKey(data: raw)
        }
    }
}
