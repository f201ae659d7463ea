import Foundation

/// One message the server would have delivered, as kept by the dev outbox (`GET /dev/outbox`).
public struct OutboxMessage: Codable, Sendable, Equatable {
    /// `email` or `sms`.
    public var channel: CodeChannel
    /// The recipient, unmasked (dev mode only).
    public var to: String
    /// The one-time code the message carries.
    public var code: String
    /// The full message text.
    public var body: String
    /// When the server sent it.
    public var sentAt: Date

    /// Creates an outbox message with the given values.
    ///
    /// - Parameters:
    ///   - channel: `email` or `sms`.
    ///   - to: The recipient, unmasked.
    ///   - code: The one-time code the message carries.
    ///   - body: The full message text.
    ///   - sentAt: When the server sent it.
    public init(channel: CodeChannel, to: String, code: String, body: String, sentAt: Date) {
        self.channel = channel
        self.to = to
        self.code = code
        self.body = body
        self.sentAt = sentAt
    }
}

/// The answer of `GET /dev/outbox`: messages oldest first.
public struct OutboxListing: Codable, Sendable, Equatable {
    /// The messages, oldest first.
    public var messages: [OutboxMessage]

    /// Creates a listing with the given messages.
    ///
    /// - Parameter messages: The messages, oldest first.
    public init(messages: [OutboxMessage]) {
        self.messages = messages
    }
}
