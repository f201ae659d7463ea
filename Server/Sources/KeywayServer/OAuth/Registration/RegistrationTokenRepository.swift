import SQLKit

/// Initial access tokens for dynamic client registration (RFC 7591 §3), stored as SHA-256 hashes,
/// each naming the template application new clients are created from, with an ID that names the
/// token in listings and revocations, and how many clients it registered.
struct RegistrationTokenRepository: Sendable {
    let sql: any SQLDatabase

    /// A stored token, without the token itself.
    struct Entry: Sendable, Equatable {
        var id: String
        var templateApplicationId: String
        var createdAt: Int64
        /// `nil`: the token does not expire.
        var expiresAt: Int64?
        /// How many clients the token registered.
        var registeredClients: Int
        var lastUsedAt: Int64?
    }

    func insert(id: String, hash: String, templateApplicationId: String, createdAt: Int64, expiresAt: Int64?)
        async throws
    {
        try await sql.raw(
            """
            INSERT INTO registration_tokens (id, token_hash, template_application_id, created_at, expires_at)
            VALUES (\(bind: id), \(bind: hash), \(bind: templateApplicationId), \(bind: createdAt), \(bind: expiresAt))
            """
        ).run()
    }

    /// The template application ID of a live token.
    func template(hash: String, now: Int64) async throws -> String? {
        guard
            let row = try await sql.raw(
                "SELECT template_application_id, expires_at FROM registration_tokens WHERE token_hash = \(bind: hash)"
            ).first()
        else { return nil }
        if let expiresAt = try row.decode(column: "expires_at", as: Int64?.self), expiresAt <= now { return nil }
        return try row.decode(column: "template_application_id", as: String.self)
    }

    /// Counts a client registered with the token.
    func recordUse(hash: String, at now: Int64) async throws {
        try await sql.raw(
            """
            UPDATE registration_tokens SET registered_clients = registered_clients + 1, last_used_at = \(bind: now)
            WHERE token_hash = \(bind: hash)
            """
        ).run()
    }

    /// The tokens issued for the template application, oldest first.
    func entries(templateApplicationId: String) async throws -> [Entry] {
        try await sql.raw(
            """
            SELECT id, template_application_id, created_at, expires_at, registered_clients, last_used_at
            FROM registration_tokens WHERE template_application_id = \(bind: templateApplicationId)
            ORDER BY created_at, id
            """
        ).all().map { row in
            Entry(
                id: try row.decode(column: "id", as: String.self),
                templateApplicationId: try row.decode(column: "template_application_id", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                expiresAt: try row.decode(column: "expires_at", as: Int64?.self),
                registeredClients: Int(try row.decode(column: "registered_clients", as: Int64.self)),
                lastUsedAt: try row.decode(column: "last_used_at", as: Int64?.self))
        }
    }

    /// Deletes the token with this ID issued for the template; whether there was one.
    func delete(id: String, templateApplicationId: String) async throws -> Bool {
        let existing = try await sql.raw(
            """
            SELECT id FROM registration_tokens
            WHERE id = \(bind: id) AND template_application_id = \(bind: templateApplicationId)
            """
        ).first()
        guard existing != nil else { return false }
        try await sql.raw("DELETE FROM registration_tokens WHERE id = \(bind: id)").run()
        return true
    }

    func delete(hash: String) async throws {
        try await sql.raw("DELETE FROM registration_tokens WHERE token_hash = \(bind: hash)").run()
    }
}

extension Repositories {
    /// ``RegistrationTokenRepository`` on this connection or transaction.
    var registrationTokens: RegistrationTokenRepository { RegistrationTokenRepository(sql: sql) }
}
