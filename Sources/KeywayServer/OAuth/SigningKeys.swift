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

/// The server's HMAC key for one-time codes: 256 random bits, generated once and persisted.
enum CodeHashKey {
    static func loadOrCreate(in database: any Database, now: Date) async throws -> SymmetricKey {
        try await database.write { repositories in
            if let stored = try await repositories.keys.secret(named: "otp_hmac_key"),
                let raw = Data(base64Encoded: stored)
            {
                return SymmetricKey(data: raw)
            }
            let raw = Data(SecureRandom.bytes(32))
            try await repositories.keys.insertSecret(
                named: "otp_hmac_key", value: raw.base64EncodedString(), createdAt: now.epochMilliseconds)
            return SymmetricKey(data: raw)
        }
    }
}
