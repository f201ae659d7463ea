import SQLKit

/// Signed-in sessions.
struct SessionRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ session: SessionRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO sessions (id, user_id, application_id, amr, auth_time, created_at, revoked_at,
                client_address_hash)
            VALUES (\(bind: session.id), \(bind: session.userId), \(bind: session.applicationId),
                \(bind: session.amr.joined(separator: " ")), \(bind: session.authTime), \(bind: session.createdAt),
                \(bind: session.revokedAt), \(bind: session.clientAddressHash))
            """
        ).run()
    }

    func find(id: String) async throws -> SessionRecord? {
        try await sql.raw("SELECT * FROM sessions WHERE id = \(bind: id)").first().map { row in
            SessionRecord(
                id: try row.decode(column: "id", as: String.self),
                userId: try row.decode(column: "user_id", as: String.self),
                applicationId: try row.decode(column: "application_id", as: String.self),
                amr: try row.decode(column: "amr", as: String.self).split(separator: " ").map(String.init),
                authTime: try row.decode(column: "auth_time", as: Int64.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                revokedAt: try row.decode(column: "revoked_at", as: Int64?.self))
        }
    }

    /// How many sessions the user opened, and how many of them from `addressHash`.
    func history(userId: String, addressHash: String?) async throws -> (total: Int, fromAddress: Int) {
        let row = try await sql.raw(
            """
            SELECT COUNT(*) AS total,
                COALESCE(SUM(CASE WHEN client_address_hash = \(bind: addressHash ?? "") THEN 1 ELSE 0 END), 0) AS here
            FROM sessions WHERE user_id = \(bind: userId)
            """
        ).first()
        return (
            Int(try row?.decode(column: "total", as: Int64.self) ?? 0),
            Int(try row?.decode(column: "here", as: Int64.self) ?? 0)
        )
    }

    /// Revokes every live session of a user.
    func revokeAll(userId: String, at time: Int64) async throws {
        try await sql.raw(
            "UPDATE sessions SET revoked_at = \(bind: time) WHERE user_id = \(bind: userId) AND revoked_at IS NULL"
        ).run()
    }

    func revoke(id: String, at time: Int64) async throws {
        try await sql.raw(
            "UPDATE sessions SET revoked_at = \(bind: time) WHERE id = \(bind: id) AND revoked_at IS NULL"
        ).run()
    }
}
