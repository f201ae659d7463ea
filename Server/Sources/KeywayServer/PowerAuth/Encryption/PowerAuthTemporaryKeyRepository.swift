import SQLKit

/// Temporary ECIES keys (PowerAuth 3.3).
struct PowerAuthTemporaryKeyRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ record: PowerAuthTemporaryKeyRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO powerauth_temporary_keys (id, application_id, activation_id, public_key, private_key,
                created_at, expires_at)
            VALUES (\(bind: record.id), \(bind: record.applicationId), \(bind: record.activationId),
                \(bind: record.publicKey), \(bind: record.sealedPrivateKey), \(bind: record.createdAt),
                \(bind: record.expiresAt))
            """
        ).run()
    }

    func find(id: String) async throws -> PowerAuthTemporaryKeyRecord? {
        try await sql.raw("SELECT * FROM powerauth_temporary_keys WHERE id = \(bind: id)").first().map(Self.record)
    }

    /// Deletes the keys expired before `cutoff`.
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM powerauth_temporary_keys WHERE expires_at < \(bind: cutoff)").run()
    }

    private static func record(_ row: any SQLRow) throws -> PowerAuthTemporaryKeyRecord {
        PowerAuthTemporaryKeyRecord(
            id: try row.decode(column: "id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            activationId: try row.decode(column: "activation_id", as: String?.self),
            publicKey: try row.decode(column: "public_key", as: String.self),
            sealedPrivateKey: try row.decode(column: "private_key", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self))
    }
}

extension Repositories {
    /// ``PowerAuthTemporaryKeyRepository`` on this connection or transaction.
    var powerAuthTemporaryKeys: PowerAuthTemporaryKeyRepository { PowerAuthTemporaryKeyRepository(sql: sql) }
}
