import SQLKit

/// Refresh tokens, by hash, grouped in families.
struct RefreshTokenRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ token: RefreshTokenRecord) async throws {
        try await insert([token])
    }

    /// Inserts `tokens` in one statement (at most 2,000: fifteen parameters each).
    func insert(_ tokens: [RefreshTokenRecord]) async throws {
        guard !tokens.isEmpty else { return }
        let rows = tokens.map { token -> SQLQueryString in
            """
            (\(bind: token.id), \(bind: token.tokenHash), \(bind: token.familyId), \(bind: token.scope),
                \(bind: token.applicationId), \(bind: token.userId), \(bind: token.sessionId),
                \(bind: token.authorizationCodeHash), \(bind: token.createdAt), \(bind: token.expiresAt),
                \(bind: token.familyExpiresAt), \(bind: token.rotatedAt), \(bind: token.successorId),
                \(bind: token.revokedAt), \(bind: token.dpopJkt))
            """
        }
        try await sql.raw(
            """
            INSERT INTO refresh_tokens (id, token_hash, family_id, scope, application_id, user_id, session_id,
                authorization_code_hash, created_at, expires_at, family_expires_at, rotated_at, successor_id,
                revoked_at, dpop_jkt)
            VALUES \(rows.joined(separator: ", "))
            """
        ).run()
    }

    /// Records when the answer carrying token `id` was first handed out.
    func markAnswered(id: String, at time: Int64) async throws {
        try await sql.raw(
            "UPDATE refresh_tokens SET answered_at = \(bind: time) WHERE id = \(bind: id) AND answered_at IS NULL"
        ).run()
    }

    /// Revokes every refresh token issued from the given authorization code, rotated ones included:
    /// the families whose first token names the code (the only tokens that do).
    func revokeIssued(fromCodeHash codeHash: String, at time: Int64) async throws {
        try await sql.raw(
            """
            UPDATE refresh_tokens SET revoked_at = \(bind: time)
            WHERE family_id IN (SELECT family_id FROM refresh_tokens WHERE authorization_code_hash = \(bind: codeHash))
                AND revoked_at IS NULL
            """
        ).run()
    }

    /// Revokes every token of a family.
    func revokeFamily(_ familyId: String, at time: Int64) async throws {
        try await sql.raw(
            "UPDATE refresh_tokens SET revoked_at = \(bind: time) WHERE family_id = \(bind: familyId) AND revoked_at IS NULL"
        ).run()
    }

    /// Revokes every refresh token of a session.
    func revokeAll(sessionId: String, at time: Int64) async throws {
        try await sql.raw(
            "UPDATE refresh_tokens SET revoked_at = \(bind: time) WHERE session_id = \(bind: sessionId) AND revoked_at IS NULL"
        ).run()
    }

    /// Revokes every refresh token of a user but those of session `keeping`: the tokens of the
    /// user's sessions (a token's user is its session's), found by session.
    func revokeAll(userId: String, keepingSession keeping: String? = nil, at time: Int64) async throws {
        try await sql.raw(
            """
            UPDATE refresh_tokens SET revoked_at = \(bind: time)
            WHERE session_id IN (SELECT id FROM sessions WHERE user_id = \(bind: userId))
                AND revoked_at IS NULL AND session_id <> \(bind: keeping ?? "")
            """
        ).run()
    }

    /// Records that `id` was spent at `time` and replaced by `successorId`.
    func markRotated(id: String, successorId: String, at time: Int64) async throws {
        try await sql.raw(
            """
            UPDATE refresh_tokens SET rotated_at = \(bind: time), successor_id = \(bind: successorId)
            WHERE id = \(bind: id)
            """
        ).run()
    }

    func find(hash: String) async throws -> RefreshTokenRecord? {
        try await sql.raw("SELECT * FROM refresh_tokens WHERE token_hash = \(bind: hash)").first().map(Self.decode)
    }

    func find(id: String) async throws -> RefreshTokenRecord? {
        try await sql.raw("SELECT * FROM refresh_tokens WHERE id = \(bind: id)").first().map(Self.decode)
    }

    /// Deletes the tokens of families whose absolute lifetime ended before `cutoff`. Spent tokens
    /// of a live family stay, so presenting one is still recognised as reuse.
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM refresh_tokens WHERE family_expires_at < \(bind: cutoff)").run()
    }

    private static func decode(_ row: any SQLRow) throws -> RefreshTokenRecord {
        RefreshTokenRecord(
            id: try row.decode(column: "id", as: String.self),
            tokenHash: try row.decode(column: "token_hash", as: String.self),
            familyId: try row.decode(column: "family_id", as: String.self),
            scope: try row.decode(column: "scope", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            sessionId: try row.decode(column: "session_id", as: String.self),
            authorizationCodeHash: try row.decode(column: "authorization_code_hash", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            familyExpiresAt: try row.decode(column: "family_expires_at", as: Int64.self),
            rotatedAt: try row.decode(column: "rotated_at", as: Int64?.self),
            successorId: try row.decode(column: "successor_id", as: String?.self),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self),
            dpopJkt: try row.decode(column: "dpop_jkt", as: String?.self),
            answeredAt: try row.decode(column: "answered_at", as: Int64?.self))
    }
}

extension Repositories {
    /// ``RefreshTokenRepository`` on this connection or transaction.
    var refreshTokens: RefreshTokenRepository { RefreshTokenRepository(sql: sql) }
}
