import Foundation
import KeywayProtocol

/// Where one outbox message stands. Carries no message text: reading a status never reveals a
/// code.
struct DeliveryStatus: Sendable, Equatable {
    /// The lifecycle of an outbox message.
    enum State: String, Sendable {
        /// Waiting for its next attempt (the first, or a retry after a failure).
        case pending
        /// Claimed by a worker, which holds it until `leaseUntil`.
        case sending
        /// A provider accepted it. Its text is wiped.
        case delivered
        /// Given up on: a permanent failure or too many attempts. Its text is wiped.
        case dead
    }

    /// The outbox identifier (`dlv_…`).
    var id: String
    /// The project the message belongs to.
    var projectId: String
    /// The flow the message belongs to, if any.
    var flowId: String?
    /// `email` or `sms`.
    var channel: CodeChannel
    /// The address or number the message goes to.
    var recipient: String
    /// The lifecycle state.
    var state: State
    /// Attempts started so far (an attempt counts once claimed).
    var attempts: Int
    /// The reason the last attempt failed, if it did.
    var lastError: String?
    /// When a pending message is due; for a message being sent, when its lease ends.
    var nextAttemptAt: Date
    /// When the message was enqueued.
    var createdAt: Date
    /// When the state last changed.
    var updatedAt: Date
    /// When a provider accepted it.
    var deliveredAt: Date?

    /// Whether the first delivery attempt has finished, one way or the other: the message is
    /// delivered or dead, waits for a retry, or is being sent again.
    var firstAttemptFinished: Bool {
        switch state {
        case .delivered, .dead: true
        case .pending: attempts >= 1
        case .sending: attempts >= 2
        }
    }

    /// Whether the message has failed at least once and is not delivered: delivery is in trouble
    /// (a flow may offer another method or ask the user to retry).
    var isFailing: Bool {
        state == .dead || (state != .delivered && lastError != nil)
    }
}
