import SQLKit

/// The redirect URIs each application registered: where authorization responses go (`login`) and
/// where a browser may be sent after signing out (`logout`).
struct RedirectURIRepository: Sendable {
    let sql: any SQLDatabase

    /// Which redirect a URI is registered for.
    enum Kind: String, Sendable {
        case login
        case logout
    }

    /// The application's URIs of `kind`, sorted.
    func uris(_ kind: Kind, applicationId: String) async throws -> [String] {
        try await sql.raw(
            """
            SELECT uri FROM application_redirect_uris
            WHERE application_id = \(bind: applicationId) AND kind = \(bind: kind.rawValue) ORDER BY uri
            """
        ).all().map { try $0.decode(column: "uri", as: String.self) }
    }

    /// Replaces the application's URIs of `kind`.
    func setURIs(_ uris: [String], kind: Kind, applicationId: String) async throws {
        try await sql.raw(
            """
            DELETE FROM application_redirect_uris
            WHERE application_id = \(bind: applicationId) AND kind = \(bind: kind.rawValue)
            """
        ).run()
        for uri in Set(uris) {
            try await sql.raw(
                """
                INSERT INTO application_redirect_uris (application_id, kind, uri)
                VALUES (\(bind: applicationId), \(bind: kind.rawValue), \(bind: uri))
                """
            ).run()
        }
    }
}

extension Repositories {
    /// ``RedirectURIRepository`` on this connection or transaction.
    var redirectURIs: RedirectURIRepository { RedirectURIRepository(sql: sql) }
}
