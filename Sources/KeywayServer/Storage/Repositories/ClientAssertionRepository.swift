import SQLKit

/// Client assertions already used (RFC 7523 §3 `jti`), by hash of client ID and `jti`, kept until
/// the assertion expires.
struct ClientAssertionRepository: Sendable {
    let sql: any SQLDatabase

    /// Records an assertion; `false` when it was recorded before (a replay).
    func insert(hash: String, expiresAt: Int64) async throws -> Bool {
        let rows = try await sql.raw(
            """
            INSERT INTO client_assertions (assertion_hash, expires_at) VALUES (\(bind: hash), \(bind: expiresAt))
            ON CONFLICT (assertion_hash) DO NOTHING RETURNING assertion_hash
            """
        ).all()
        return !rows.isEmpty
    }

    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM client_assertions WHERE expires_at < \(bind: cutoff)").run()
    }
}
