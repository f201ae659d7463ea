import SQLKit

/// Browser sessions of the hosted pages.
struct BrowserSessionRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ session: BrowserSessionRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO browser_sessions (id, token_hash, project_id, user_id, application_id, amr, auth_time,
                created_at, expires_at, revoked_at)
            VALUES (\(bind: session.id), \(bind: session.tokenHash), \(bind: session.projectId),
                \(bind: session.userId), \(bind: session.applicationId), \(bind: session.amr.joined(separator: " ")),
                \(bind: session.authTime), \(bind: session.createdAt), \(bind: session.expiresAt),
                \(bind: session.revokedAt))
            """
        ).run()
    }

    /// The session whose cookie hashes to `tokenHash`, live or not.
    func find(tokenHash: String) async throws -> BrowserSessionRecord? {
        try await sql.raw("SELECT * FROM browser_sessions WHERE token_hash = \(bind: tokenHash)").first().map(Self.decode)
    }

    func find(id: String) async throws -> BrowserSessionRecord? {
        try await sql.raw("SELECT * FROM browser_sessions WHERE id = \(bind: id)").first().map(Self.decode)
    }

    func revoke(id: String, at time: Int64) async throws {
        try await sql.raw(
            "UPDATE browser_sessions SET revoked_at = \(bind: time) WHERE id = \(bind: id) AND revoked_at IS NULL"
        ).run()
    }

    /// Revokes every live browser session of a user (sign out everywhere) but `keeping`.
    func revokeAll(userId: String, keeping: String? = nil, at time: Int64) async throws {
        try await sql.raw(
            """
            UPDATE browser_sessions SET revoked_at = \(bind: time)
            WHERE user_id = \(bind: userId) AND revoked_at IS NULL AND id <> \(bind: keeping ?? "")
            """
        ).run()
    }

    /// Deletes sessions that expired (or were revoked) before `cutoff`.
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw(
            "DELETE FROM browser_sessions WHERE expires_at < \(bind: cutoff) OR revoked_at < \(bind: cutoff)"
        ).run()
    }

    private static func decode(_ row: any SQLRow) throws -> BrowserSessionRecord {
        BrowserSessionRecord(
            id: try row.decode(column: "id", as: String.self),
            tokenHash: try row.decode(column: "token_hash", as: String.self),
            projectId: try row.decode(column: "project_id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            amr: try row.decode(column: "amr", as: String.self).split(separator: " ").map(String.init),
            authTime: try row.decode(column: "auth_time", as: Int64.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self))
    }
}

extension Repositories {
    /// ``BrowserSessionRepository`` on this connection or transaction.
    var browserSessions: BrowserSessionRepository { BrowserSessionRepository(sql: sql) }
}
