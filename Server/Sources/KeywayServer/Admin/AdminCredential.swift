import Foundation
import KeywayJOSE
import KeywayProtocol

/// The admin API's credential: one bearer token (`kad_…`, 256 random bits) of which only the
/// SHA-256 hash is stored, in the `server_secrets` table. Every server process and the
/// `keyway-server` subcommands read the same row, so a rotation takes effect everywhere at once.
enum AdminCredential {
    /// The `server_secrets` row holding the token's hash.
    static let hashSecretName = "admin_token_hash"
    /// The prefix of generated tokens.
    static let prefix = "kad"
    /// The shortest token accepted from the configuration.
    static let minimumLength = 32

    /// Makes sure a token exists: a configured token replaces the stored hash; without one a
    /// random token is created when none is stored yet. Returns a created token (to show once).
    static func prepare(configured: String?, in database: any Database, now: Date) async throws -> Sensitive<String>? {
        if let configured {
            guard configured.count >= minimumLength, !configured.contains(where: \.isWhitespace) else {
                throw ConfigurationError(
                    "The admin token must have at least \(minimumLength) characters and no spaces.")
            }
            try await database.write { repositories in
                try await repositories.keys.replaceSecret(
                    named: hashSecretName, value: sha256Hex(configured), createdAt: now.epochMilliseconds)
            }
            return nil
        }
        return try await database.write { repositories -> Sensitive<String>? in
            guard try await repositories.keys.secret(named: hashSecretName) == nil else { return nil }
            let token = SecureRandom.token(prefix: prefix)
            try await repositories.keys.insertSecret(
                named: hashSecretName, value: sha256Hex(token), createdAt: now.epochMilliseconds)
            return Sensitive(token)
        }
    }

    /// Replaces the token with a new random one and returns it (to show once).
    static func rotate(in database: any Database, now: Date) async throws -> Sensitive<String> {
        let token = SecureRandom.token(prefix: prefix)
        try await database.write { repositories in
            try await repositories.keys.replaceSecret(
                named: hashSecretName, value: sha256Hex(token), createdAt: now.epochMilliseconds)
        }
        return Sensitive(token)
    }

    /// Whether `presented` is the admin token: its hash is compared with the stored hash in
    /// constant time.
    static func verify(_ presented: String, in database: any Database) async throws -> Bool {
        guard let stored = try await database.read({ try await $0.keys.secret(named: hashSecretName) }) else {
            return false
        }
        return ConstantTime.equals(sha256Hex(presented), stored)
    }
}
