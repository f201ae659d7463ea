import KeywayProtocol
import SQLKit

/// What a start token was issued for.
public struct StartTokenClaim: Sendable, Equatable {
    /// The flow the token starts.
    public var flowType: FlowType
    /// The identifier (email address or phone number) the flow is for.
    public var identifier: String

    public init(flowType: FlowType, identifier: String) {
        self.flowType = flowType
        self.identifier = identifier
    }
}

/// Start tokens: single-use tokens an application's backend obtains from the admin API to start a
/// flow for a known identifier. Stored as SHA-256 hashes.
struct StartTokenRepository: Sendable {
    let sql: any SQLDatabase

    func insert(
        hash: String, applicationId: String, claim: StartTokenClaim, createdAt: Int64, expiresAt: Int64
    ) async throws {
        try await sql.raw(
            """
            INSERT INTO start_tokens (token_hash, application_id, flow_type, identifier, created_at, expires_at)
            VALUES (\(bind: hash), \(bind: applicationId), \(bind: claim.flowType.rawValue), \(bind: claim.identifier),
                \(bind: createdAt), \(bind: expiresAt))
            """
        ).run()
    }

    /// Marks the token used and returns what it was issued for; `nil` when it is unknown, of
    /// another application, expired or used before. Looked up by hash. Call it inside a write
    /// transaction.
    func consume(token: String, applicationId: String, now: Int64) async throws -> StartTokenClaim? {
        let hash = sha256Hex(token)
        guard
            let row = try await sql.raw(
                """
                UPDATE start_tokens SET used_at = \(bind: now)
                WHERE token_hash = \(bind: hash) AND application_id = \(bind: applicationId)
                    AND used_at IS NULL AND expires_at > \(bind: now)
                RETURNING flow_type, identifier
                """
            ).first()
        else { return nil }
        return StartTokenClaim(
            flowType: FlowType(rawValue: try row.decode(column: "flow_type", as: String.self)),
            identifier: try row.decode(column: "identifier", as: String.self))
    }

    /// What the token was issued for while it can still be used, without using it.
    func claim(token: String, applicationId: String, now: Int64) async throws -> StartTokenClaim? {
        guard
            let row = try await sql.raw(
                """
                SELECT flow_type, identifier FROM start_tokens
                WHERE token_hash = \(bind: sha256Hex(token)) AND application_id = \(bind: applicationId)
                    AND used_at IS NULL AND expires_at > \(bind: now)
                """
            ).first()
        else { return nil }
        return StartTokenClaim(
            flowType: FlowType(rawValue: try row.decode(column: "flow_type", as: String.self)),
            identifier: try row.decode(column: "identifier", as: String.self))
    }

    /// Makes a token used at `usedAt` usable again (the flow it started was undone).
    func release(token: String, usedAt: Int64) async throws {
        try await sql.raw(
            """
            UPDATE start_tokens SET used_at = NULL
            WHERE token_hash = \(bind: sha256Hex(token)) AND used_at = \(bind: usedAt)
            """
        ).run()
    }

    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM start_tokens WHERE expires_at < \(bind: cutoff)").run()
    }
}

extension Repositories {
    /// ``StartTokenRepository`` on this connection or transaction.
    var startTokens: StartTokenRepository { StartTokenRepository(sql: sql) }
}
