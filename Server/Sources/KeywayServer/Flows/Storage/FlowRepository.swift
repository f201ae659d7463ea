import Foundation
import KeywayProtocol
import SQLKit

/// Flows and their one-time-code state.
struct FlowRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ flow: FlowRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO flows (id, application_id, flow_type, identifier, user_id, state, token_hash,
                code_challenge, otp_hash, otp_expires_at, resend_at, resend_count, failed_attempts, session_id,
                created_at, expires_at, updated_at, progress)
            VALUES (\(bind: flow.id), \(bind: flow.applicationId), \(bind: flow.flowType.rawValue),
                \(bind: flow.identifier), \(bind: flow.userId), \(bind: flow.state.rawValue), \(bind: flow.tokenHash),
                \(bind: flow.codeChallenge), \(bind: flow.otpHash), \(bind: flow.otpExpiresAt), \(bind: flow.resendAt),
                \(bind: Int64(flow.resendCount)), \(bind: Int64(flow.failedAttempts)), \(bind: flow.sessionId),
                \(bind: flow.createdAt), \(bind: flow.expiresAt), \(bind: flow.updatedAt),
                \(bind: try Self.encode(flow.progress)))
            """
        ).run()
    }

    func find(id: String) async throws -> FlowRecord? {
        try await sql.raw("SELECT * FROM flows WHERE id = \(bind: id)").first().map(Self.decode)
    }

    /// Writes every mutable column of `flow`.
    func update(_ flow: FlowRecord) async throws {
        try await sql.raw(
            """
            UPDATE flows SET user_id = \(bind: flow.userId), identifier = \(bind: flow.identifier),
                state = \(bind: flow.state.rawValue),
                otp_hash = \(bind: flow.otpHash), otp_expires_at = \(bind: flow.otpExpiresAt),
                resend_at = \(bind: flow.resendAt), resend_count = \(bind: Int64(flow.resendCount)),
                failed_attempts = \(bind: Int64(flow.failedAttempts)), session_id = \(bind: flow.sessionId),
                updated_at = \(bind: flow.updatedAt), progress = \(bind: try Self.encode(flow.progress))
            WHERE id = \(bind: flow.id)
            """
        ).run()
    }

    func delete(id: String) async throws {
        try await sql.raw("DELETE FROM flows WHERE id = \(bind: id)").run()
    }

    /// Deletes flows that expired before `cutoff`; returns nothing (the engines differ in row counts).
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM flows WHERE expires_at < \(bind: cutoff)").run()
    }

    func count() async throws -> Int {
        Int(try await sql.raw("SELECT COUNT(*) AS n FROM flows").first()?.decode(column: "n", as: Int64.self) ?? 0)
    }

    private static func decode(_ row: any SQLRow) throws -> FlowRecord {
        FlowRecord(
            id: try row.decode(column: "id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            flowType: FlowType(rawValue: try row.decode(column: "flow_type", as: String.self)),
            identifier: try row.decode(column: "identifier", as: String.self),
            userId: try row.decode(column: "user_id", as: String?.self),
            state: FlowRecord.State(rawValue: try row.decode(column: "state", as: String.self)) ?? .failed,
            tokenHash: try row.decode(column: "token_hash", as: String.self),
            codeChallenge: try row.decode(column: "code_challenge", as: String.self),
            otpHash: try row.decode(column: "otp_hash", as: String?.self),
            otpExpiresAt: try row.decode(column: "otp_expires_at", as: Int64?.self),
            resendAt: try row.decode(column: "resend_at", as: Int64?.self),
            resendCount: Int(try row.decode(column: "resend_count", as: Int64.self)),
            failedAttempts: Int(try row.decode(column: "failed_attempts", as: Int64.self)),
            sessionId: try row.decode(column: "session_id", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self),
            progress: try row.decode(column: "progress", as: String?.self).map { text in
                do {
                    return try JSONDecoder().decode(FlowProgress.self, from: Data(text.utf8))
                } catch {
                    throw UnreadableFlowProgress(reason: String(describing: error))
                }
            })
    }

    private static func encode(_ progress: FlowProgress?) throws -> String? {
        try progress.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    }
}

/// A flow whose progress this release cannot read (a stage a newer release added, during a
/// rollback): the flow cannot go on here and is answered as not found, so the client starts again.
struct UnreadableFlowProgress: Error, CustomStringConvertible {
    let reason: String
    var description: String { "The flow's progress cannot be read: \(reason)" }
}

extension Repositories {
    /// ``FlowRepository`` on this connection or transaction.
    var flows: FlowRepository { FlowRepository(sql: sql) }
}
