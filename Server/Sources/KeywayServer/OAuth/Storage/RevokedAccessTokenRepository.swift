import SQLKit

/// Access tokens revoked before they expired, by `jti`. A row is only needed until the token
/// would have expired anyway.
struct RevokedAccessTokenRepository: Sendable {
    let sql: any SQLDatabase

    func insert(jti: String, expiresAt: Int64, revokedAt: Int64) async throws {
        try await sql.raw(
            """
            INSERT INTO revoked_access_tokens (jti, expires_at, revoked_at)
            VALUES (\(bind: jti), \(bind: expiresAt), \(bind: revokedAt))
            ON CONFLICT (jti) DO NOTHING
            """
        ).run()
    }

    func contains(jti: String) async throws -> Bool {
        try await sql.raw("SELECT jti FROM revoked_access_tokens WHERE jti = \(bind: jti)").first() != nil
    }

    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM revoked_access_tokens WHERE expires_at < \(bind: cutoff)").run()
    }
}

extension Repositories {
    /// ``RevokedAccessTokenRepository`` on this connection or transaction.
    var revokedAccessTokens: RevokedAccessTokenRepository { RevokedAccessTokenRepository(sql: sql) }
}
