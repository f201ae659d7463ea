import SQLKit

/// PowerAuth MAC tokens.
struct PowerAuthTokenRepository: Sendable {
    let sql: any SQLDatabase

    /// Inserts a token after the activation's others.
    func insert(_ record: PowerAuthTokenRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO powerauth_tokens (id, activation_id, sequence, secret, factors, created_at, last_used_at)
            VALUES (\(bind: record.id), \(bind: record.activationId),
                (SELECT COALESCE(MAX(sequence), 0) + 1 FROM powerauth_tokens WHERE activation_id = \(bind: record.activationId)),
                \(bind: record.sealedSecret), \(bind: record.factors), \(bind: record.createdAt), \(bind: record.lastUsedAt))
            """
        ).run()
    }

    func find(id: String) async throws -> PowerAuthTokenRecord? {
        try await sql.raw("SELECT * FROM powerauth_tokens WHERE id = \(bind: id)").first().map(Self.record)
    }

    /// The activation's tokens, oldest first.
    func all(activationId: String) async throws -> [PowerAuthTokenRecord] {
        try await sql.raw(
            "SELECT * FROM powerauth_tokens WHERE activation_id = \(bind: activationId) ORDER BY sequence"
        ).all().map(Self.record)
    }

    /// Deletes one token of the activation; `false` when it had none of this ID.
    func delete(id: String, activationId: String) async throws -> Bool {
        let rows = try await sql.raw(
            "DELETE FROM powerauth_tokens WHERE id = \(bind: id) AND activation_id = \(bind: activationId) RETURNING id"
        ).all()
        return !rows.isEmpty
    }

    /// Deletes every token of the activation.
    func deleteAll(activationId: String) async throws {
        try await sql.raw("DELETE FROM powerauth_tokens WHERE activation_id = \(bind: activationId)").run()
    }

    func touch(id: String, now: Int64) async throws {
        try await sql.raw("UPDATE powerauth_tokens SET last_used_at = \(bind: now) WHERE id = \(bind: id)").run()
    }

    private static func record(_ row: any SQLRow) throws -> PowerAuthTokenRecord {
        PowerAuthTokenRecord(
            id: try row.decode(column: "id", as: String.self),
            activationId: try row.decode(column: "activation_id", as: String.self),
            sealedSecret: try row.decode(column: "secret", as: String.self),
            factors: try row.decode(column: "factors", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            lastUsedAt: try row.decode(column: "last_used_at", as: Int64?.self))
    }
}

extension Repositories {
    /// ``PowerAuthTokenRepository`` on this connection or transaction.
    var powerAuthTokens: PowerAuthTokenRepository { PowerAuthTokenRepository(sql: sql) }
}
