import SQLKit

/// Sign-in links, by the keyed hash of their token.
struct SignInLinkRepository: Sendable {
    let sql: any SQLDatabase

    /// Stores a new link for its flow, replacing the flow's earlier ones (a new code was sent).
    func replace(with link: SignInLinkRecord) async throws {
        try await sql.raw("DELETE FROM sign_in_links WHERE flow_id = \(bind: link.flowId)").run()
        try await sql.raw(
            """
            INSERT INTO sign_in_links (token_hash, flow_id, application_id, location, user_agent, state, created_at,
                expires_at, decided_at)
            VALUES (\(bind: link.tokenHash), \(bind: link.flowId), \(bind: link.applicationId), \(bind: link.location),
                \(bind: link.userAgent), \(bind: link.state.rawValue), \(bind: link.createdAt), \(bind: link.expiresAt),
                \(bind: link.decidedAt))
            """
        ).run()
    }

    func find(tokenHash: String) async throws -> SignInLinkRecord? {
        try await sql.raw("SELECT * FROM sign_in_links WHERE token_hash = \(bind: tokenHash)").first().map(Self.record)
    }

    /// The flow's current link, if it has one.
    func find(flowId: String) async throws -> SignInLinkRecord? {
        try await sql.raw(
            "SELECT * FROM sign_in_links WHERE flow_id = \(bind: flowId) ORDER BY created_at DESC"
        ).first().map(Self.record)
    }

    /// Moves a link from `from` to `to` unless it expired; `false` when it was not in `from` (any
    /// more) or has expired, so two requests never both succeed.
    func transition(tokenHash: String, from: SignInLinkRecord.State, to: SignInLinkRecord.State, now: Int64)
        async throws -> Bool
    {
        try await sql.raw(
            """
            UPDATE sign_in_links SET state = \(bind: to.rawValue), decided_at = \(bind: now)
            WHERE token_hash = \(bind: tokenHash) AND state = \(bind: from.rawValue) AND expires_at > \(bind: now)
            RETURNING token_hash
            """
        ).first() != nil
    }

    /// Takes up an approved link: `false` when it is not approved (any more).
    func takeApproved(tokenHash: String, now: Int64) async throws -> Bool {
        try await sql.raw(
            """
            UPDATE sign_in_links SET state = 'used', decided_at = \(bind: now)
            WHERE token_hash = \(bind: tokenHash) AND state = 'approved' RETURNING token_hash
            """
        ).first() != nil
    }

    /// Spends the flow's links that are still pending (its code was entered).
    func spend(flowId: String, now: Int64) async throws {
        try await sql.raw(
            """
            UPDATE sign_in_links SET state = 'used', decided_at = \(bind: now)
            WHERE flow_id = \(bind: flowId) AND state = 'pending'
            """
        ).run()
    }

    /// Deletes the flow's links (the flow was cancelled).
    func delete(flowId: String) async throws {
        try await sql.raw("DELETE FROM sign_in_links WHERE flow_id = \(bind: flowId)").run()
    }

    /// Deletes the links that expired before `cutoff`, whatever became of them.
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM sign_in_links WHERE expires_at < \(bind: cutoff)").run()
    }

    private static func record(_ row: any SQLRow) throws -> SignInLinkRecord {
        SignInLinkRecord(
            tokenHash: try row.decode(column: "token_hash", as: String.self),
            flowId: try row.decode(column: "flow_id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            location: try row.decode(column: "location", as: String?.self),
            userAgent: try row.decode(column: "user_agent", as: String?.self),
            state: SignInLinkRecord.State(rawValue: try row.decode(column: "state", as: String.self)) ?? .used,
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            decidedAt: try row.decode(column: "decided_at", as: Int64?.self))
    }
}

extension Repositories {
    /// ``SignInLinkRepository`` on this connection or transaction.
    var signInLinks: SignInLinkRepository { SignInLinkRepository(sql: sql) }
}
