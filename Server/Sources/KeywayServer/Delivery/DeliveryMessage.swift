import Foundation
import KeywayProtocol

/// A message claimed from the outbox for one delivery attempt, as handed to a
/// ``DeliveryProvider``: the ``DeliveryRequest`` that was enqueued (its members read through,
/// `message.recipient`), with its outbox ID and this attempt.
@dynamicMemberLookup
struct DeliveryMessage: Sendable {
    /// The outbox identifier (`dlv_…`).
    var id: String
    /// What was enqueued.
    var request: DeliveryRequest
    /// This attempt's number, from 1.
    var attempt: Int
    /// When the message was enqueued.
    var createdAt: Date

    subscript<Value>(dynamicMember member: KeyPath<DeliveryRequest, Value>) -> Value {
        request[keyPath: member]
    }
}
