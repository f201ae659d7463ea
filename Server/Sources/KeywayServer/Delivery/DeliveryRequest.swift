import KeywayProtocol

/// A message to put in the delivery outbox (``DeliveryOutboxRepository/enqueue(_:now:)``).
///
/// The text carries a one-time code, so `body` and `code` are ``Sensitive``: printing a request
/// never shows them.
struct DeliveryRequest: Sendable {
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
    /// The code alone, for providers that show or format it themselves (the dev outbox).
    var code: Sensitive<String>?
    /// Names the message for receivers: the same on every attempt, and enqueueing a second
    /// request with a key already in the outbox adds nothing.
    var idempotencyKey: String
}
