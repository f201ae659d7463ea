import SQLKit

/// Users of a project.
struct UserRepository: Sendable {
    let sql: any SQLDatabase

    func find(projectId: String, email: String) async throws -> UserRecord? {
        try await sql.raw(
            "SELECT * FROM users WHERE project_id = \(bind: projectId) AND email = \(bind: email)"
        ).first().map(Self.decode)
    }

    func find(id: String) async throws -> UserRecord? {
        try await sql.raw("SELECT * FROM users WHERE id = \(bind: id)").first().map(Self.decode)
    }

    func insert(_ user: UserRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO users (id, project_id, email, email_verified, created_at)
            VALUES (\(bind: user.id), \(bind: user.projectId), \(bind: user.email),
                \(bind: Int64(user.emailVerified ? 1 : 0)), \(bind: user.createdAt))
            """
        ).run()
    }

    /// The users with this email address, in every project.
    func find(email: String) async throws -> [UserRecord] {
        try await sql.raw("SELECT * FROM users WHERE email = \(bind: email) ORDER BY created_at").all().map(Self.decode)
    }

    /// Blocks the user at `time`, or unblocks it with `nil`. A user blocked already keeps the
    /// first time.
    func setBlocked(id: String, at time: Int64?) async throws {
        if let time {
            try await sql.raw(
                "UPDATE users SET blocked_at = \(bind: time) WHERE id = \(bind: id) AND blocked_at IS NULL"
            ).run()
        } else {
            try await sql.raw("UPDATE users SET blocked_at = NULL WHERE id = \(bind: id)").run()
        }
    }

    /// Whether the user exists and is blocked.
    func isBlocked(id: String) async throws -> Bool {
        try await find(id: id)?.isBlocked ?? false
    }

    func markEmailVerified(id: String) async throws {
        try await sql.raw("UPDATE users SET email_verified = 1 WHERE id = \(bind: id)").run()
    }

    private static func decode(_ row: any SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.decode(column: "id", as: String.self),
            projectId: try row.decode(column: "project_id", as: String.self),
            email: try row.decode(column: "email", as: String.self),
            emailVerified: try row.decode(column: "email_verified", as: Int64.self) != 0,
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            blockedAt: try row.decode(column: "blocked_at", as: Int64?.self))
    }
}
