import Foundation
import KeywayProtocol

/// A message claimed from the outbox for one delivery attempt, as handed to a
/// ``DeliveryProvider``.
struct DeliveryMessage: Sendable {
    /// The outbox identifier (`dlv_…`).
    var id: String
    /// The project whose delivery settings route the message.
    var projectId: String
    /// The flow the message belongs to, if any.
    var flowId: String?
    /// `email` or `sms`.
    var channel: CodeChannel
    /// The address or E.164 number to deliver to.
    var recipient: String
    /// The subject line (email; empty for SMS).
    var subject: String
    /// The full text, code included.
    var body: Sensitive<String>
    /// The code alone, when the message was enqueued with it.
    var code: Sensitive<String>?
    /// The same on every attempt of this message.
    var idempotencyKey: String
    /// This attempt's number, from 1.
    var attempt: Int
    /// When the message was enqueued.
    var createdAt: Date
}
