import Foundation
import KeywayProtocol
import Logging
import Testing

@testable import KeywayServer

@Suite("Dev outbox")
struct DevOutboxTests {
    func message(to address: String, code: String) -> DeliveryMessage {
        DeliveryMessage(
            id: "dlv_\(code)",
            request: DeliveryRequest(
                projectId: "prj", flowId: nil, channel: .email, recipient: address, subject: "s", body: Sensitive("b \(code)"),
                code: Sensitive(code), idempotencyKey: "idk_\(code)"),
            attempt: 1, createdAt: Date())
    }

    @Test func keepsTheLatestMessagesAndFiltersByRecipient() async throws {
        let outbox = DevOutbox(capacity: 5, clock: SystemClock(), logger: Logger(label: "test"))
        for index in 0..<12 {
            _ = await outbox.deliver(message(to: index.isMultiple(of: 2) ? "even@example.com" : "odd@example.com", code: "\(index)"))
        }
        #expect(await outbox.list().map(\.code) == ["7", "8", "9", "10", "11"])
        #expect(await outbox.list(to: "even@example.com").map(\.code) == ["8", "10"])
        #expect(await outbox.list(to: "ODD@example.com").map(\.code) == ["7", "9", "11"])
        #expect(await outbox.list(to: "nobody@example.com").isEmpty)
    }

    @Test func evictedRecipientsDisappear() async throws {
        let outbox = DevOutbox(capacity: 2, clock: SystemClock(), logger: Logger(label: "test"))
        _ = await outbox.deliver(message(to: "first@example.com", code: "1"))
        _ = await outbox.deliver(message(to: "second@example.com", code: "2"))
        _ = await outbox.deliver(message(to: "third@example.com", code: "3"))
        #expect(await outbox.list(to: "first@example.com").isEmpty)
        #expect(await outbox.list().map(\.to) == ["second@example.com", "third@example.com"])
    }
}
