import Foundation
import KeywayProtocol
import Logging

/// Dev mode's delivery: every message is printed to the log (the only log line that may show a
/// code) and kept in memory for `GET /dev/outbox`. Holds the latest `capacity` messages, indexed
/// by recipient so a filtered read does not scan them all.
///
/// It is a ``DeliveryProvider`` whose every attempt succeeds, so the delivery worker routes
/// dev-mode messages to it.
actor DevOutbox: DeliveryProvider {
    /// Every held message, oldest first, from `head` on (earlier slots are evicted).
    private var messages: [OutboxMessage] = []
    private var head = 0
    private var byRecipient: [String: [OutboxMessage]] = [:]
    private let capacity: Int
    private let clock: any ServerClock
    private let logger: Logger

    init(capacity: Int = 10_000, clock: any ServerClock, logger: Logger) {
        self.capacity = max(1, capacity)
        self.clock = clock
        self.logger = logger
    }

    /// Keeps a message for `GET /dev/outbox` and writes it to the log.
    private func record(channel: CodeChannel, to recipient: String, code: String, body: String) {
        let entry = OutboxMessage(channel: channel, to: recipient, code: code, body: body, sentAt: clock.now())
        messages.append(entry)
        byRecipient[entry.to, default: []].append(entry)
        if messages.count - head > capacity {
            let evicted = messages[head]
            head += 1
            byRecipient[evicted.to]?.removeFirst()
            if byRecipient[evicted.to]?.isEmpty == true { byRecipient[evicted.to] = nil }
            // Drop evicted slots once they outnumber the held ones.
            if head >= capacity {
                messages.removeFirst(head)
                head = 0
            }
        }
        logger.notice("dev outbox: \(channel) to \(recipient): \(body)", metadata: ["outbox": "dev"])
    }

    /// Messages oldest first, optionally only those sent to `recipient`.
    func list(to recipient: String? = nil) -> [OutboxMessage] {
        guard let recipient = recipient?.lowercased() else { return Array(messages[head...]) }
        return byRecipient[recipient] ?? []
    }
}

extension DevOutbox {
    /// Keeps the message for `GET /dev/outbox`; always delivered.
    func deliver(_ message: DeliveryMessage) async -> DeliveryOutcome {
        record(
            channel: message.channel, to: message.recipient, code: message.code?.revealed ?? "",
            body: message.body.revealed)
        return .delivered
    }
}
