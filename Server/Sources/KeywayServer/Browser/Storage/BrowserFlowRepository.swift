import SQLKit

/// Visits to the hosted pages in progress.
struct BrowserFlowRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ flow: BrowserFlowRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO browser_flows (id, token_hash, application_id, state, csrf_token, created_at, expires_at)
            VALUES (\(bind: flow.id), \(bind: flow.tokenHash), \(bind: flow.applicationId), \(bind: flow.state),
                \(bind: flow.csrfToken), \(bind: flow.createdAt), \(bind: flow.expiresAt))
            """
        ).run()
    }

    /// The visit whose cookie hashes to `tokenHash`.
    func find(tokenHash: String) async throws -> BrowserFlowRecord? {
        try await sql.raw("SELECT * FROM browser_flows WHERE token_hash = \(bind: tokenHash)").first().map { row in
            BrowserFlowRecord(
                id: try row.decode(column: "id", as: String.self),
                tokenHash: try row.decode(column: "token_hash", as: String.self),
                applicationId: try row.decode(column: "application_id", as: String.self),
                state: try row.decode(column: "state", as: String.self),
                csrfToken: try row.decode(column: "csrf_token", as: String.self),
                createdAt: try row.decode(column: "created_at", as: Int64.self),
                expiresAt: try row.decode(column: "expires_at", as: Int64.self))
        }
    }

    func updateState(_ state: String, id: String) async throws {
        try await sql.raw("UPDATE browser_flows SET state = \(bind: state) WHERE id = \(bind: id)").run()
    }

    func delete(id: String) async throws {
        try await sql.raw("DELETE FROM browser_flows WHERE id = \(bind: id)").run()
    }

    /// Deletes visits that expired before `cutoff`.
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM browser_flows WHERE expires_at < \(bind: cutoff)").run()
    }
}

extension Repositories {
    /// ``BrowserFlowRepository`` on this connection or transaction.
    var browserFlows: BrowserFlowRepository { BrowserFlowRepository(sql: sql) }
}
