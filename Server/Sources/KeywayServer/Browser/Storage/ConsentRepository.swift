import SQLKit

/// What users allowed clients that are not first-party.
struct ConsentRepository: Sendable {
    let sql: any SQLDatabase

    func find(userId: String, applicationId: String) async throws -> ConsentRecord? {
        try await sql.raw(
            "SELECT * FROM consents WHERE user_id = \(bind: userId) AND application_id = \(bind: applicationId)"
        ).first().map(Self.decode)
    }

    /// The user's consents, newest first.
    func all(userId: String) async throws -> [ConsentRecord] {
        try await sql.raw("SELECT * FROM consents WHERE user_id = \(bind: userId) ORDER BY granted_at DESC").all()
            .map(Self.decode)
    }

    /// Records (or widens) the user's consent for the client.
    func grant(_ consent: ConsentRecord) async throws {
        try await sql.raw(
            "DELETE FROM consents WHERE user_id = \(bind: consent.userId) AND application_id = \(bind: consent.applicationId)"
        ).run()
        try await sql.raw(
            """
            INSERT INTO consents (user_id, application_id, scope, granted_at)
            VALUES (\(bind: consent.userId), \(bind: consent.applicationId), \(bind: consent.scope),
                \(bind: consent.grantedAt))
            """
        ).run()
    }

    /// Withdraws the user's consent for the client; whether there was one.
    @discardableResult
    func revoke(userId: String, applicationId: String) async throws -> Bool {
        let existing = try await find(userId: userId, applicationId: applicationId)
        try await sql.raw(
            "DELETE FROM consents WHERE user_id = \(bind: userId) AND application_id = \(bind: applicationId)"
        ).run()
        return existing != nil
    }

    private static func decode(_ row: any SQLRow) throws -> ConsentRecord {
        ConsentRecord(
            userId: try row.decode(column: "user_id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            scope: try row.decode(column: "scope", as: String.self),
            grantedAt: try row.decode(column: "granted_at", as: Int64.self))
    }
}

extension Repositories {
    /// ``ConsentRepository`` on this connection or transaction.
    var consents: ConsentRepository { ConsentRepository(sql: sql) }
}
