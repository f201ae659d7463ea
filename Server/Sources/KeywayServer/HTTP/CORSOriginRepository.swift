import SQLKit

/// The origins whose scripts may call the token, UserInfo and revocation endpoints, per
/// application.
struct CORSOriginRepository: Sendable {
    let sql: any SQLDatabase

    /// The application's origins, sorted.
    func origins(applicationId: String) async throws -> [String] {
        try await sql.raw(
            "SELECT origin FROM application_cors_origins WHERE application_id = \(bind: applicationId) ORDER BY origin"
        ).all().map { try $0.decode(column: "origin", as: String.self) }
    }

    /// Every application's origins, by application ID.
    func all() async throws -> [String: [String]] {
        let rows = try await sql.raw("SELECT application_id, origin FROM application_cors_origins ORDER BY origin").all()
        var origins: [String: [String]] = [:]
        for row in rows {
            origins[try row.decode(column: "application_id", as: String.self), default: []].append(
                try row.decode(column: "origin", as: String.self))
        }
        return origins
    }

    /// Replaces the application's origins.
    func setOrigins(_ origins: [String], applicationId: String) async throws {
        try await sql.raw("DELETE FROM application_cors_origins WHERE application_id = \(bind: applicationId)").run()
        for origin in Set(origins) {
            try await sql.raw(
                "INSERT INTO application_cors_origins (application_id, origin) VALUES (\(bind: applicationId), \(bind: origin))"
            ).run()
        }
    }

    /// Whether the application with this config ID (`client_id`) registered `origin`.
    func allows(_ origin: String, configId: String) async throws -> Bool {
        try await sql.raw(
            """
            SELECT 1 AS hit FROM application_cors_origins o JOIN applications a ON a.id = o.application_id
            WHERE a.config_id = \(bind: configId) AND o.origin = \(bind: origin)
            """
        ).first() != nil
    }

    /// Whether any application registered `origin` (for preflight requests, which name no client).
    func isRegistered(_ origin: String) async throws -> Bool {
        try await sql.raw("SELECT 1 AS hit FROM application_cors_origins WHERE origin = \(bind: origin) LIMIT 1").first()
            != nil
    }
}

extension Repositories {
    /// ``CORSOriginRepository`` on this connection or transaction.
    var corsOrigins: CORSOriginRepository { CORSOriginRepository(sql: sql) }
}
