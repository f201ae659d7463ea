import SQLKit

/// Authorization codes, by hash.
struct AuthorizationCodeRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ code: AuthorizationCodeRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO authorization_codes (code_hash, application_id, user_id, session_id, flow_id,
                code_challenge, expires_at, used_at, created_at, scope, nonce, redirect_uri)
            VALUES (\(bind: code.codeHash), \(bind: code.applicationId), \(bind: code.userId),
                \(bind: code.sessionId), \(bind: code.flowId), \(bind: code.codeChallenge), \(bind: code.expiresAt),
                \(bind: code.usedAt), \(bind: code.createdAt), \(bind: code.scope), \(bind: code.nonce),
                \(bind: code.redirectURI))
            """
        ).run()
    }

    func find(hash: String) async throws -> AuthorizationCodeRecord? {
        try await sql.raw("SELECT * FROM authorization_codes WHERE code_hash = \(bind: hash)").first().map { row in
            AuthorizationCodeRecord(
                codeHash: try row.decode(column: "code_hash", as: String.self),
                applicationId: try row.decode(column: "application_id", as: String.self),
                userId: try row.decode(column: "user_id", as: String.self),
                sessionId: try row.decode(column: "session_id", as: String.self),
                flowId: try row.decode(column: "flow_id", as: String.self),
                codeChallenge: try row.decode(column: "code_challenge", as: String.self),
                expiresAt: try row.decode(column: "expires_at", as: Int64.self),
                usedAt: try row.decode(column: "used_at", as: Int64?.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                scope: try row.decode(column: "scope", as: String?.self),
                nonce: try row.decode(column: "nonce", as: String?.self),
                redirectURI: try row.decode(column: "redirect_uri", as: String?.self))
        }
    }

    func markUsed(hash: String, at time: Int64) async throws {
        try await sql.raw("UPDATE authorization_codes SET used_at = \(bind: time) WHERE code_hash = \(bind: hash)").run()
    }

    /// Deletes a code that was never handed out.
    func delete(hash: String) async throws {
        try await sql.raw("DELETE FROM authorization_codes WHERE code_hash = \(bind: hash)").run()
    }

    /// Deletes codes that expired before `cutoff`.
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM authorization_codes WHERE expires_at < \(bind: cutoff)").run()
    }
}

extension Repositories {
    /// ``AuthorizationCodeRepository`` on this connection or transaction.
    var authorizationCodes: AuthorizationCodeRepository { AuthorizationCodeRepository(sql: sql) }
}
