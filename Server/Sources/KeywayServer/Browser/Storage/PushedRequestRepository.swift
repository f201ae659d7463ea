import SQLKit

/// Pushed authorization requests (RFC 9126), single use.
struct PushedRequestRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ request: PushedRequestRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO pushed_authorization_requests (uri_hash, application_id, request, expires_at, used_at)
            VALUES (\(bind: request.uriHash), \(bind: request.applicationId), \(bind: request.request),
                \(bind: request.expiresAt), \(bind: request.usedAt))
            """
        ).run()
    }

    func find(uriHash: String) async throws -> PushedRequestRecord? {
        try await sql.raw("SELECT * FROM pushed_authorization_requests WHERE uri_hash = \(bind: uriHash)").first().map { row in
            PushedRequestRecord(
                uriHash: try row.decode(column: "uri_hash", as: String.self),
                applicationId: try row.decode(column: "application_id", as: String.self),
                request: try row.decode(column: "request", as: String.self),
                expiresAt: try row.decode(column: "expires_at", as: Int64.self),
                usedAt: try row.decode(column: "used_at", as: Int64?.self))
        }
    }

    func markUsed(uriHash: String, at time: Int64) async throws {
        try await sql.raw(
            "UPDATE pushed_authorization_requests SET used_at = \(bind: time) WHERE uri_hash = \(bind: uriHash)"
        ).run()
    }

    /// Deletes requests that expired before `cutoff`.
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM pushed_authorization_requests WHERE expires_at < \(bind: cutoff)").run()
    }
}

extension Repositories {
    /// ``PushedRequestRepository`` on this connection or transaction.
    var pushedRequests: PushedRequestRepository { PushedRequestRepository(sql: sql) }
}
