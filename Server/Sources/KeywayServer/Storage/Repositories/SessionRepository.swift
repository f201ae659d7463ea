import SQLKit

/// Signed-in sessions.
struct SessionRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ session: SessionRecord) async throws {
        try await insert([session])
    }

    /// Inserts `sessions` in one statement (at most 3,000: nine parameters each).
    func insert(_ sessions: [SessionRecord]) async throws {
        guard !sessions.isEmpty else { return }
        let rows = sessions.map { session -> SQLQueryString in
            """
            (\(bind: session.id), \(bind: session.userId), \(bind: session.applicationId),
                \(bind: session.amr.joined(separator: " ")), \(bind: session.authTime), \(bind: session.createdAt),
                \(bind: session.revokedAt), \(bind: session.clientAddressHash), \(bind: session.browserSessionId))
            """
        }
        try await sql.raw(
            """
            INSERT INTO sessions (id, user_id, application_id, amr, auth_time, created_at, revoked_at,
                client_address_hash, browser_session_id)
            VALUES \(rows.joined(separator: ", "))
            """
        ).run()
    }

    func find(id: String) async throws -> SessionRecord? {
        try await sql.raw("SELECT * FROM sessions WHERE id = \(bind: id)").first().map(Self.decode)
    }

    /// The live session of `applicationId` opened through the browser session, if any.
    func find(browserSessionId: String, applicationId: String) async throws -> SessionRecord? {
        try await sql.raw(
            """
            SELECT * FROM sessions WHERE browser_session_id = \(bind: browserSessionId)
                AND application_id = \(bind: applicationId) AND revoked_at IS NULL
            ORDER BY created_at DESC LIMIT 1
            """
        ).first().map(Self.decode)
    }

    /// Links a session to the browser session it was opened through.
    func link(id: String, browserSessionId: String) async throws {
        try await sql.raw(
            "UPDATE sessions SET browser_session_id = \(bind: browserSessionId) WHERE id = \(bind: id)"
        ).run()
    }

    /// Revokes every live session opened through the browser session; returns their IDs.
    func revokeAll(browserSessionId: String, at time: Int64) async throws -> [String] {
        let ids = try await sql.raw(
            """
            SELECT id FROM sessions WHERE browser_session_id = \(bind: browserSessionId) AND revoked_at IS NULL
            """
        ).all().map { try $0.decode(column: "id", as: String.self) }
        try await sql.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: time)
            WHERE browser_session_id = \(bind: browserSessionId) AND revoked_at IS NULL
            """
        ).run()
        return ids
    }

    private static func decode(_ row: any SQLRow) throws -> SessionRecord {
            SessionRecord(
                id: try row.decode(column: "id", as: String.self),
                userId: try row.decode(column: "user_id", as: String.self),
                applicationId: try row.decode(column: "application_id", as: String.self),
                amr: try row.decode(column: "amr", as: String.self).split(separator: " ").map(String.init),
                authTime: try row.decode(column: "auth_time", as: Int64.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                revokedAt: try row.decode(column: "revoked_at", as: Int64?.self),
                clientAddressHash: try row.decode(column: "client_address_hash", as: String?.self),
                browserSessionId: try row.decode(column: "browser_session_id", as: String?.self))
    }

    /// Whether the user ever opened a session, and whether one from `addressHash`: two indexed
    /// look-ups that stop at the first row, however many sessions the user has.
    func history(userId: String, addressHash: String?) async throws -> (any: Bool, fromAddress: Bool) {
        let any = try await sql.raw("SELECT 1 AS hit FROM sessions WHERE user_id = \(bind: userId) LIMIT 1").first()
        guard any != nil else { return (false, false) }
        guard let addressHash else { return (true, false) }
        let here = try await sql.raw(
            """
            SELECT 1 AS hit FROM sessions
            WHERE user_id = \(bind: userId) AND client_address_hash = \(bind: addressHash) LIMIT 1
            """
        ).first()
        return (true, here != nil)
    }

    func revoke(id: String, at time: Int64) async throws {
        try await sql.raw(
            "UPDATE sessions SET revoked_at = \(bind: time) WHERE id = \(bind: id) AND revoked_at IS NULL"
        ).run()
    }

    /// The user's sessions whose tokens can still work, newest first, at most `limit`: not
    /// revoked, and opened after `openedAfter` (an access token of theirs may be unexpired),
    /// holding a refresh token that is neither spent, revoked nor expired at `now`, or opened
    /// through a browser session that is live at `now` (the browser can sign in again without
    /// asking). The refresh tokens are looked up by their session's index.
    func live(userId: String, openedAfter: Int64, now: Int64, limit: Int) async throws -> [LiveSession] {
        // Both engines take LIMIT as a bound parameter.
        try await sql.raw(
            """
            SELECT s.*, a.name AS application_name FROM sessions s
            JOIN applications a ON a.id = s.application_id
            WHERE s.user_id = \(bind: userId) AND s.revoked_at IS NULL
                AND (s.created_at > \(bind: openedAfter) OR EXISTS (
                    SELECT 1 FROM refresh_tokens r
                    WHERE r.session_id = s.id AND r.revoked_at IS NULL
                        AND r.rotated_at IS NULL AND r.expires_at > \(bind: now))
                    OR EXISTS (
                        SELECT 1 FROM browser_sessions b
                        WHERE b.id = s.browser_session_id AND b.revoked_at IS NULL AND b.expires_at > \(bind: now)))
            ORDER BY s.created_at DESC, s.id LIMIT \(bind: limit)
            """
        ).all().map { row in
            LiveSession(
                session: try Self.decode(row), applicationName: try row.decode(column: "application_name", as: String.self))
        }
    }

    /// Revokes every live session of a user but `keeping`.
    func revokeAll(userId: String, keeping: String? = nil, at time: Int64) async throws {
        try await sql.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: time)
            WHERE user_id = \(bind: userId) AND revoked_at IS NULL AND id <> \(bind: keeping ?? "")
            """
        ).run()
    }
}

/// A session of ``SessionRepository/live(userId:openedAfter:now:limit:)``, with the name of its
/// application.
struct LiveSession: Sendable, Equatable {
    var session: SessionRecord
    var applicationName: String
}
