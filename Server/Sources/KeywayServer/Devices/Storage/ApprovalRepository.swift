import SQLKit

/// Approval requests of sign-ins waiting for a trusted device.
struct ApprovalRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ approval: ApprovalRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO approval_requests (id, flow_id, application_id, user_id, matching_number, qr_secret_hash, state,
                location, user_agent, created_at, expires_at, decided_at, decided_by_device_id)
            VALUES (\(bind: approval.id), \(bind: approval.flowId), \(bind: approval.applicationId),
                \(bind: approval.userId), \(bind: approval.matchingNumber), \(bind: approval.qrSecretHash),
                \(bind: approval.state.rawValue), \(bind: approval.location), \(bind: approval.userAgent),
                \(bind: approval.createdAt), \(bind: approval.expiresAt), \(bind: approval.decidedAt),
                \(bind: approval.decidedByDeviceId))
            """
        ).run()
    }

    func find(id: String) async throws -> ApprovalRecord? {
        try await sql.raw("SELECT * FROM approval_requests WHERE id = \(bind: id)").first().map(Self.record)
    }

    /// The user's requests still waiting at `now`, oldest first.
    func pending(userId: String, now: Int64) async throws -> [ApprovalRecord] {
        try await sql.raw(
            """
            SELECT * FROM approval_requests
            WHERE user_id = \(bind: userId) AND state = 'pending' AND expires_at > \(bind: now)
            ORDER BY created_at
            """
        ).all().map(Self.record)
    }

    /// Decides a request that is still pending and unexpired; `false` when it is not (any more).
    func decide(id: String, state: ApprovalRecord.State, deviceId: String, now: Int64) async throws -> Bool {
        try await sql.raw(
            """
            UPDATE approval_requests SET state = \(bind: state.rawValue), decided_at = \(bind: now),
                decided_by_device_id = \(bind: deviceId)
            WHERE id = \(bind: id) AND state = 'pending' AND expires_at > \(bind: now) RETURNING id
            """
        ).first() != nil
    }

    /// Withdraws the pending request of a cancelled flow.
    func withdraw(flowId: String, now: Int64) async throws {
        try await sql.raw(
            """
            UPDATE approval_requests SET state = 'withdrawn', decided_at = \(bind: now)
            WHERE flow_id = \(bind: flowId) AND state = 'pending'
            """
        ).run()
    }

    /// Deletes the requests that expired before `cutoff`, whatever became of them.
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM approval_requests WHERE expires_at < \(bind: cutoff)").run()
    }

    private static func record(_ row: any SQLRow) throws -> ApprovalRecord {
        ApprovalRecord(
            id: try row.decode(column: "id", as: String.self),
            flowId: try row.decode(column: "flow_id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            matchingNumber: try row.decode(column: "matching_number", as: String.self),
            qrSecretHash: try row.decode(column: "qr_secret_hash", as: String.self),
            state: ApprovalRecord.State(rawValue: try row.decode(column: "state", as: String.self)) ?? .denied,
            location: try row.decode(column: "location", as: String?.self),
            userAgent: try row.decode(column: "user_agent", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            decidedAt: try row.decode(column: "decided_at", as: Int64?.self),
            decidedByDeviceId: try row.decode(column: "decided_by_device_id", as: String?.self))
    }
}

extension Repositories {
    /// ``ApprovalRepository`` on this connection or transaction.
    var approvals: ApprovalRepository { ApprovalRepository(sql: sql) }
}
