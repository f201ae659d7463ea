import SQLKit

/// Signing keys and server secrets.
struct KeyRepository: Sendable {
    let sql: any SQLDatabase

    struct StoredSigningKey: Sendable {
        var kid: String
        var algorithm: String
        /// The private key's raw representation, base64.
        var privateKey: String
        var createdAt: Int64
    }

    func activeSigningKeys() async throws -> [StoredSigningKey] {
        try await sql.raw(
            "SELECT kid, algorithm, private_key, created_at FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at"
        ).all().map { row in
            StoredSigningKey(
                kid: try row.decode(column: "kid", as: String.self),
                algorithm: try row.decode(column: "algorithm", as: String.self),
                privateKey: try row.decode(column: "private_key", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self))
        }
    }

    func insertSigningKey(_ key: StoredSigningKey) async throws {
        try await sql.raw(
            """
            INSERT INTO signing_keys (kid, algorithm, private_key, created_at)
            VALUES (\(bind: key.kid), \(bind: key.algorithm), \(bind: key.privateKey), \(bind: key.createdAt))
            """
        ).run()
    }

    func secret(named name: String) async throws -> String? {
        try await sql.raw("SELECT value FROM server_secrets WHERE name = \(bind: name)").first()?
            .decode(column: "value", as: String.self)
    }

    func insertSecret(named name: String, value: String, createdAt: Int64) async throws {
        try await sql.raw(
            "INSERT INTO server_secrets (name, value, created_at) VALUES (\(bind: name), \(bind: value), \(bind: createdAt))"
        ).run()
    }

    /// Stores `value` under `name`, replacing any earlier value.
    func replaceSecret(named name: String, value: String, createdAt: Int64) async throws {
        try await sql.raw(
            """
            INSERT INTO server_secrets (name, value, created_at) VALUES (\(bind: name), \(bind: value), \(bind: createdAt))
            ON CONFLICT (name) DO UPDATE SET value = excluded.value, created_at = excluded.created_at
            """
        ).run()
    }
}
