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

    static func loadOrCreate(named name: String, in database: any Database, now: Date) async throws -> SymmetricKey {
        try await database.write { repositories in
            if let stored = try await repositories.keys.secret(named: name),
                let raw = Data(base64Encoded: stored)
            {
                return SymmetricKey(data: raw)
            }
            let raw = Data(SecureRandom.bytes(32))
            try await repositories.keys.insertSecret(
                named: name, value: raw.base64EncodedString(), createdAt: now.epochMilliseconds)
            return SymmetricKey(data: raw)
        }
    }
}
