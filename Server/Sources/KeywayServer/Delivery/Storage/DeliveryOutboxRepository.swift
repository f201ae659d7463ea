import Foundation
import KeywayProtocol
import SQLKit

/// The delivery outbox: messages waiting for, undergoing or done with delivery.
///
/// ``enqueue(_:now:)`` runs inside the caller's write transaction, so a message exists exactly
/// when the change that needs it (a flow's new code) commits. Delivered and dead messages keep
/// their metadata but lose their text (`subject`, `body`, `code`).
struct DeliveryOutboxRepository: Sendable {
    let sql: any SQLDatabase

    /// Adds a pending message due at `now` (milliseconds) and answers its identifier. A request
    /// whose idempotency key is already in the outbox adds nothing and answers the existing
    /// message's identifier.
    func enqueue(_ request: DeliveryRequest, now: Int64) async throws -> String {
        let id = SecureRandom.identifier(prefix: "dlv")
        let inserted = try await sql.raw(
            """
            INSERT INTO delivery_outbox (id, project_id, flow_id, channel, recipient, subject, body, code,
                idempotency_key, status, attempts, next_attempt_at, created_at, updated_at)
            VALUES (\(bind: id), \(bind: request.projectId), \(bind: request.flowId),
                \(bind: request.channel.rawValue), \(bind: request.recipient), \(bind: request.subject),
                \(bind: request.body.revealed), \(bind: request.code?.revealed), \(bind: request.idempotencyKey),
                \(bind: DeliveryStatus.State.pending.rawValue), 0, \(bind: now), \(bind: now), \(bind: now))
            ON CONFLICT (idempotency_key) DO NOTHING
            RETURNING id
            """
        ).first()
        if inserted != nil { return id }
        guard
            let existing = try await sql.raw(
                "SELECT id FROM delivery_outbox WHERE idempotency_key = \(bind: request.idempotencyKey)"
            ).first()
        else { throw StorageError(description: "The outbox refused a message without holding its idempotency key.") }
        return try existing.decode(column: "id", as: String.self)
    }

    /// Adds a message already claimed for its first attempt by the caller, who attempts it as soon
    /// as the transaction commits (the flow engine does, to answer with the outcome). If the caller
    /// never reports an outcome, the lease (`lease` milliseconds) runs out and a worker retries it.
    func enqueueClaimed(_ request: DeliveryRequest, now: Int64, lease: Int64) async throws -> DeliveryMessage {
        let id = SecureRandom.identifier(prefix: "dlv")
        let leaseUntil = now + lease
        try await sql.raw(
            """
            INSERT INTO delivery_outbox (id, project_id, flow_id, channel, recipient, subject, body, code,
                idempotency_key, status, attempts, next_attempt_at, lease_until, created_at, updated_at)
            VALUES (\(bind: id), \(bind: request.projectId), \(bind: request.flowId),
                \(bind: request.channel.rawValue), \(bind: request.recipient), \(bind: request.subject),
                \(bind: request.body.revealed), \(bind: request.code?.revealed), \(bind: request.idempotencyKey),
                \(bind: DeliveryStatus.State.sending.rawValue), 1, \(bind: leaseUntil), \(bind: leaseUntil),
                \(bind: now), \(bind: now))
            """
        ).run()
        return DeliveryMessage(id: id, request: request, attempt: 1, createdAt: Date(epochMilliseconds: now))
    }

    /// Whether any message is due at `now`: a cheap read before claiming in a write transaction.
    func hasDue(now: Int64) async throws -> Bool {
        try await sql.raw(
            """
            SELECT id FROM delivery_outbox
            WHERE status IN ('pending', 'sending') AND next_attempt_at <= \(bind: now)
            LIMIT 1
            """
        ).first() != nil
    }

    /// Claims up to `limit` due messages for one attempt each: pending messages whose time has
    /// come, and messages whose sender's lease (`lease` milliseconds) ran out without a result (a
    /// crash mid-send). Each claimed message counts an attempt and is held until `now + lease`.
    ///
    /// The state is checked again in the `UPDATE` itself, so two workers claiming at once (on
    /// PostgreSQL, where claims are not serialized) never both get one message.
    func claimDue(now: Int64, limit: Int, lease: Int64) async throws -> [DeliveryMessage] {
        let leaseUntil = now + lease
        let rows = try await sql.raw(
            """
            UPDATE delivery_outbox
            SET status = 'sending', attempts = attempts + 1, lease_until = \(bind: leaseUntil),
                next_attempt_at = \(bind: leaseUntil), updated_at = \(bind: now)
            WHERE id IN (
                SELECT id FROM delivery_outbox
                WHERE status IN ('pending', 'sending') AND next_attempt_at <= \(bind: now)
                ORDER BY next_attempt_at LIMIT \(bind: Int64(max(1, limit))))
            AND status IN ('pending', 'sending') AND next_attempt_at <= \(bind: now)
            RETURNING id, project_id, flow_id, channel, recipient, subject, body, code, idempotency_key, attempts,
                created_at
            """
        ).all()
        return try rows.map { row in
            DeliveryMessage(
                id: try row.decode(column: "id", as: String.self),
                request: DeliveryRequest(
                    projectId: try row.decode(column: "project_id", as: String.self),
                    flowId: try row.decode(column: "flow_id", as: String?.self),
                    channel: CodeChannel(rawValue: try row.decode(column: "channel", as: String.self)),
                    recipient: try row.decode(column: "recipient", as: String.self),
                    subject: try row.decode(column: "subject", as: String.self),
                    body: Sensitive(try row.decode(column: "body", as: String.self)),
                    code: try row.decode(column: "code", as: String?.self).map { Sensitive($0) },
                    idempotencyKey: try row.decode(column: "idempotency_key", as: String.self)),
                attempt: Int(try row.decode(column: "attempts", as: Int64.self)),
                createdAt: Date(epochMilliseconds: try row.decode(column: "created_at", as: Int64.self)))
        }
    }

    /// Records that a provider accepted the message, and wipes its text. A message a slower
    /// attempt already settled as dead stays dead.
    func markDelivered(id: String, now: Int64) async throws {
        try await sql.raw(
            """
            UPDATE delivery_outbox
            SET status = 'delivered', subject = '', body = '', code = NULL, lease_until = NULL,
                delivered_at = \(bind: now), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status IN ('pending', 'sending')
            """
        ).run()
    }

    /// Records failed attempt number `attempt` and schedules the next at `retryAt`. Does nothing
    /// when the attempt no longer holds the message (its lease ran out and another took it).
    func markFailed(id: String, attempt: Int, error: String, retryAt: Int64, now: Int64) async throws {
        try await sql.raw(
            """
            UPDATE delivery_outbox
            SET status = 'pending', next_attempt_at = \(bind: retryAt), lease_until = NULL,
                last_error = \(bind: error), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status = 'sending' AND attempts = \(bind: Int64(attempt))
            """
        ).run()
    }

    /// Gives up on the message after attempt number `attempt`: it becomes a dead letter with
    /// `error` and loses its text. Does nothing when the attempt no longer holds the message.
    func markDead(id: String, attempt: Int, error: String, now: Int64) async throws {
        try await sql.raw(
            """
            UPDATE delivery_outbox
            SET status = 'dead', subject = '', body = '', code = NULL, lease_until = NULL,
                last_error = \(bind: error), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status = 'sending' AND attempts = \(bind: Int64(attempt))
            """
        ).run()
    }

    /// Hands a claimed message back before its lease ends (its worker is shutting down without
    /// an outcome for it): it is due again at once, for any worker.
    func releaseLease(id: String, attempt: Int, now: Int64) async throws {
        try await sql.raw(
            """
            UPDATE delivery_outbox
            SET status = 'pending', lease_until = NULL, next_attempt_at = \(bind: now), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status = 'sending' AND attempts = \(bind: Int64(attempt))
            """
        ).run()
    }

    /// Gives up a message that is not delivered yet because what it was for is gone (the flow
    /// that needed the code went back to an earlier step): it becomes a dead letter, `reason`
    /// added to its last error, and is never sent later.
    func withdraw(id: String, reason: String, now: Int64) async throws {
        try await sql.raw(
            """
            UPDATE delivery_outbox
            SET status = 'dead', subject = '', body = '', code = NULL, lease_until = NULL,
                last_error = COALESCE(last_error || '; ', '') || \(bind: reason), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status IN ('pending', 'sending')
            """
        ).run()
    }

    /// The status of one message, or `nil` for an unknown identifier.
    func status(id: String) async throws -> DeliveryStatus? {
        try await sql.raw("SELECT \(unsafeRaw: Self.statusColumns) FROM delivery_outbox WHERE id = \(bind: id)")
            .first().map(Self.decodeStatus)
    }

    /// Dead letters, most recently failed first, of one project or of all.
    func deadLetters(projectId: String? = nil, limit: Int = 100) async throws -> [DeliveryStatus] {
        let rows: [any SQLRow]
        if let projectId {
            rows = try await sql.raw(
                """
                SELECT \(unsafeRaw: Self.statusColumns) FROM delivery_outbox
                WHERE project_id = \(bind: projectId) AND status = 'dead'
                ORDER BY updated_at DESC LIMIT \(bind: Int64(max(1, limit)))
                """
            ).all()
        } else {
            rows = try await sql.raw(
                """
                SELECT \(unsafeRaw: Self.statusColumns) FROM delivery_outbox
                WHERE status = 'dead' ORDER BY updated_at DESC LIMIT \(bind: Int64(max(1, limit)))
                """
            ).all()
        }
        return try rows.map(Self.decodeStatus)
    }

    /// Messages in `states`, most recently changed first, of one project or of all (at most
    /// `limit`, 1…500).
    func messages(in states: [DeliveryStatus.State], projectId: String? = nil, limit: Int = 100) async throws
        -> [DeliveryStatus]
    {
        guard !states.isEmpty else { return [] }
        let bounded = Int64(min(500, max(1, limit)))
        let names = SQLList(states.map { SQLBind($0.rawValue) })
        let rows: [any SQLRow]
        if let projectId {
            rows = try await sql.raw(
                """
                SELECT \(unsafeRaw: Self.statusColumns) FROM delivery_outbox
                WHERE project_id = \(bind: projectId) AND status IN (\(names))
                ORDER BY updated_at DESC, id LIMIT \(bind: bounded)
                """
            ).all()
        } else {
            rows = try await sql.raw(
                """
                SELECT \(unsafeRaw: Self.statusColumns) FROM delivery_outbox
                WHERE status IN (\(names)) ORDER BY updated_at DESC, id LIMIT \(bind: bounded)
                """
            ).all()
        }
        return try rows.map(Self.decodeStatus)
    }

    /// How many messages wait to be delivered (pending or being sent), and when the oldest of
    /// them was written (milliseconds since 1970; `nil` when none waits).
    func backlog() async throws -> (count: Int, oldestCreatedAt: Int64?) {
        guard
            let row = try await sql.raw(
                "SELECT COUNT(*) AS waiting, MIN(created_at) AS oldest FROM delivery_outbox WHERE status IN ('pending', 'sending')"
            ).first()
        else { return (0, nil) }
        return (Int(try row.decode(column: "waiting", as: Int64.self)), try row.decode(column: "oldest", as: Int64?.self))
    }

    /// Sends a dead letter again: it becomes pending, due at `now`, with its attempts reset.
    /// Its text was wiped when it died, so the retry carries text again (a new code: a code
    /// declared undeliverable is not sent later). Answers whether the message was a dead letter.
    func retry(id: String, subject: String, body: Sensitive<String>, code: Sensitive<String>?, now: Int64)
        async throws -> Bool
    {
        try await sql.raw(
            """
            UPDATE delivery_outbox
            SET status = 'pending', attempts = 0, next_attempt_at = \(bind: now), subject = \(bind: subject),
                body = \(bind: body.revealed), code = \(bind: code?.revealed), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status = 'dead'
            RETURNING id
            """
        ).first() != nil
    }

    /// Removes delivered messages settled before `deliveredBefore` and dead letters settled
    /// before `deadBefore`.
    func deleteSettled(deliveredBefore: Int64, deadBefore: Int64) async throws {
        try await sql.raw(
            """
            DELETE FROM delivery_outbox
            WHERE (status = 'delivered' AND updated_at < \(bind: deliveredBefore))
               OR (status = 'dead' AND updated_at < \(bind: deadBefore))
            """
        ).run()
    }

    private static let statusColumns =
        "id, project_id, flow_id, channel, recipient, status, attempts, last_error, next_attempt_at, created_at, updated_at, delivered_at"

    private static func decodeStatus(_ row: any SQLRow) throws -> DeliveryStatus {
        DeliveryStatus(
            id: try row.decode(column: "id", as: String.self),
            projectId: try row.decode(column: "project_id", as: String.self),
            flowId: try row.decode(column: "flow_id", as: String?.self),
            channel: CodeChannel(rawValue: try row.decode(column: "channel", as: String.self)),
            recipient: try row.decode(column: "recipient", as: String.self),
            state: DeliveryStatus.State(rawValue: try row.decode(column: "status", as: String.self)) ?? .dead,
            attempts: Int(try row.decode(column: "attempts", as: Int64.self)),
            lastError: try row.decode(column: "last_error", as: String?.self),
            nextAttemptAt: Date(epochMilliseconds: try row.decode(column: "next_attempt_at", as: Int64.self)),
            createdAt: Date(epochMilliseconds: try row.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(epochMilliseconds: try row.decode(column: "updated_at", as: Int64.self)),
            deliveredAt: try row.decode(column: "delivered_at", as: Int64?.self).map { Date(epochMilliseconds: $0) })
    }
}

extension Repositories {
    /// ``DeliveryOutboxRepository`` on this connection or transaction.
    var deliveryOutbox: DeliveryOutboxRepository { DeliveryOutboxRepository(sql: sql) }
}
