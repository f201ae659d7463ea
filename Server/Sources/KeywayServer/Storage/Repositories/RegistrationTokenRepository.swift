import SQLKit

/// Initial access tokens for dynamic client registration (RFC 7591 §3), stored as SHA-256 hashes,
/// each naming the template application new clients are created from.
struct RegistrationTokenRepository: Sendable {
    let sql: any SQLDatabase

    func insert(hash: String, templateApplicationId: String, createdAt: Int64, expiresAt: Int64?) async throws {
        try await sql.raw(
            """
            INSERT INTO registration_tokens (token_hash, template_application_id, created_at, expires_at)
            VALUES (\(bind: hash), \(bind: templateApplicationId), \(bind: createdAt), \(bind: expiresAt))
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

    func delete(hash: String) async throws {
        try await sql.raw("DELETE FROM registration_tokens WHERE token_hash = \(bind: hash)").run()
    }
}
