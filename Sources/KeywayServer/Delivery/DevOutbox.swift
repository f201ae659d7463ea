import Foundation
import KeywayProtocol
import Logging

/// Dev mode's delivery: every message is printed to the log (the only log line that may show a
/// code) and kept in memory for `GET /dev/outbox`. Holds the latest `capacity` messages.
actor DevOutbox: MessageSender {
    private var messages: [OutboxMessage] = []
    private let capacity: Int
    private let clock: any ServerClock
    private let logger: Logger

    init(capacity: Int = 10_000, clock: any ServerClock, logger: Logger) {
        self.capacity = capacity
        self.clock = clock
        self.logger = logger
    }

    func send(_ message: OutgoingMessage) async throws {
        let entry = OutboxMessage(
            channel: message.channel, to: message.to, code: message.code.revealed, body: message.body,
            sentAt: clock.now())
        messages.append(entry)
        if messages.count > capacity { messages.removeFirst(messages.count - capacity) }
        logger.notice(
            "dev outbox: \(message.channel) to \(message.to): \(message.body)",
            metadata: ["outbox": "dev"])
    }

    /// Messages oldest first, optionally only those sent to `recipient`.
    func list(to recipient: String? = nil) -> [OutboxMessage] {
        guard let recipient = recipient?.lowercased() else { return messages }
        return messages.filter { $0.to == recipient }
    }
}
