import SQLKit

/// Refresh tokens, by hash.
struct RefreshTokenRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ token: RefreshTokenRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO refresh_tokens (id, token_hash, application_id, user_id, session_id,
                authorization_code_hash, created_at, expires_at, revoked_at)
            VALUES (\(bind: token.id), \(bind: token.tokenHash), \(bind: token.applicationId), \(bind: token.userId),
                \(bind: token.sessionId), \(bind: token.authorizationCodeHash), \(bind: token.createdAt),
                \(bind: token.expiresAt), \(bind: token.revokedAt))
            """
        ).run()
    }

    /// Revokes every refresh token issued from the given authorization code.
    func revokeIssued(fromCodeHash codeHash: String, at time: Int64) async throws {
        try await sql.raw(
            """
            UPDATE refresh_tokens SET revoked_at = \(bind: time)
            WHERE authorization_code_hash = \(bind: codeHash) AND revoked_at IS NULL
            """
        ).run()
    }

    func find(hash: String) async throws -> RefreshTokenRecord? {
        try await sql.raw("SELECT * FROM refresh_tokens WHERE token_hash = \(bind: hash)").first().map { row in
            RefreshTokenRecord(
                id: try row.decode(column: "id", as: String.self),
                tokenHash: try row.decode(column: "token_hash", as: String.self),
                applicationId: try row.decode(column: "application_id", as: String.self),
                userId: try row.decode(column: "user_id", as: String.self),
                sessionId: try row.decode(column: "session_id", as: String.self),
                authorizationCodeHash: try row.decode(column: "authorization_code_hash", as: String?.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                expiresAt: try row.decode(column: "expires_at", as: Int64.self),
                revokedAt: try row.decode(column: "revoked_at", as: Int64?.self))
        }
    }
}
