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

    func markEmailVerified(id: String) async throws {
        try await sql.raw("UPDATE users SET email_verified = 1 WHERE id = \(bind: id)").run()
    }

    private static func decode(_ row: any SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.decode(column: "id", as: String.self),
            projectId: try row.decode(column: "project_id", as: String.self),
            email: try row.decode(column: "email", as: String.self),
            emailVerified: try row.decode(column: "email_verified", as: Int64.self) != 0,
            createdAt: try row.decode(column: "created_at", as: Int64.self))
    }
}
