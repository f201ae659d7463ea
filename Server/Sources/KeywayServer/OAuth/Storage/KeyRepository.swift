import SQLKit

/// Signing keys and server secrets.
struct KeyRepository: Sendable {
    let sql: any SQLDatabase

    struct StoredSigningKey: Sendable, Equatable {
        var kid: String
        var algorithm: String
        /// The private key's raw representation, base64.
        var privateKey: String
        var createdAt: Int64
        /// When it starts signing (`createdAt` for keys from before rotation).
        var activatesAt: Int64
        /// When it stopped (or stops) signing; `nil` while no successor is scheduled.
        var retiredAt: Int64? = nil
        /// Until when its public key is published; `nil` while it is not retired.
        var publishUntil: Int64? = nil
    }

    /// Every signing key whose public key is still published at `now` (all of them when `now`
    /// is `nil`), in the order they sign.
    func signingKeys(publishedAt now: Int64? = nil) async throws -> [StoredSigningKey] {
        let rows =
            if let now {
                try await sql.raw(
                    """
                    SELECT kid, algorithm, private_key, created_at, activates_at, retired_at, publish_until
                    FROM signing_keys WHERE publish_until IS NULL OR publish_until > \(bind: now)
                    ORDER BY COALESCE(activates_at, created_at), kid
                    """
                ).all()
            } else {
                try await sql.raw(
                    """
                    SELECT kid, algorithm, private_key, created_at, activates_at, retired_at, publish_until
                    FROM signing_keys ORDER BY COALESCE(activates_at, created_at), kid
                    """
                ).all()
            }
        return try rows.map { row in
            let createdAt = try row.decode(column: "created_at", as: Int64.self)
            return StoredSigningKey(
                kid: try row.decode(column: "kid", as: String.self),
                algorithm: try row.decode(column: "algorithm", as: String.self),
                privateKey: try row.decode(column: "private_key", as: String.self), createdAt: createdAt,
                // Keys from before rotation sign from the beginning, as the first key does now.
                activatesAt: try row.decode(column: "activates_at", as: Int64?.self) ?? 0,
                retiredAt: try row.decode(column: "retired_at", as: Int64?.self),
                publishUntil: try row.decode(column: "publish_until", as: Int64?.self))
        }
    }

    func insertSigningKey(_ key: StoredSigningKey) async throws {
        try await sql.raw(
            """
            INSERT INTO signing_keys (kid, algorithm, private_key, created_at, activates_at, retired_at, publish_until)
            VALUES (\(bind: key.kid), \(bind: key.algorithm), \(bind: key.privateKey), \(bind: key.createdAt),
                \(bind: key.activatesAt), \(bind: key.retiredAt), \(bind: key.publishUntil))
            """
        ).run()
    }

    /// Schedules the end of a key: it stops signing at `retiredAt` and is published until
    /// `publishUntil`.
    func retireSigningKey(kid: String, at retiredAt: Int64, publishUntil: Int64) async throws {
        try await sql.raw(
            """
            UPDATE signing_keys SET retired_at = \(bind: retiredAt), publish_until = \(bind: publishUntil)
            WHERE kid = \(bind: kid)
            """
        ).run()
    }

    /// Replaces a signing key's stored private key (sealing it, or sealing it anew).
    func updateSigningKeyPrivate(kid: String, value: String) async throws {
        try await sql.raw("UPDATE signing_keys SET private_key = \(bind: value) WHERE kid = \(bind: kid)").run()
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

    /// Replaces the value stored under `name`, keeping when it was created.
    func updateSecret(named name: String, value: String) async throws {
        try await sql.raw("UPDATE server_secrets SET value = \(bind: value) WHERE name = \(bind: name)").run()
    }
}

extension Repositories {
    /// ``KeyRepository`` on this connection or transaction.
    var keys: KeyRepository { KeyRepository(sql: sql) }
}
