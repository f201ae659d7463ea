import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol

/// The server's ES256 signing key: generated once, persisted in the database, loaded at start.
struct SigningKey: Sendable {
    let kid: String
    let privateKey: P256.Signing.PrivateKey

    var publicJWK: JSONWebKey { ECJWK.publicJWK(for: privateKey.publicKey) }

    /// Loads the active key, creating and storing one on first start.
    static func loadOrCreate(in database: any Database, now: Date) async throws -> SigningKey {
        try await database.write { repositories in
            if let stored = try await repositories.keys.activeSigningKeys().last {
                guard stored.algorithm == "ES256", let raw = Data(base64Encoded: stored.privateKey) else {
                    throw StorageError(description: "The stored signing key \(stored.kid) is unreadable.")
                }
                return SigningKey(kid: stored.kid, privateKey: try P256.Signing.PrivateKey(rawRepresentation: raw))
            }
            let key = P256.Signing.PrivateKey()
            let kid = ECJWK.publicJWK(for: key.publicKey).kid ?? SecureRandom.identifier(prefix: "key")
            try await repositories.keys.insertSigningKey(
                .init(
                    kid: kid, algorithm: "ES256", privateKey: key.rawRepresentation.base64EncodedString(),
                    createdAt: now.epochMilliseconds))
            return SigningKey(kid: kid, privateKey: key)
        }
    }
}

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
