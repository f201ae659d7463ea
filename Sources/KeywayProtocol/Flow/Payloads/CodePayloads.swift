import Foundation

/// The delivery channel of a one-time code.
public struct CodeChannel: OpenStringValue {
    /// The channel as the wire spells it (`email`).
    public let rawValue: String
    /// Creates a channel from its wire spelling; one this version does not know is kept as it is.
    ///
    /// - Parameter rawValue: The channel as the wire spells it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// By email.
    public static let email = CodeChannel(rawValue: "email")
    /// By SMS.
    public static let sms = CodeChannel(rawValue: "sms")

}

/// Payload of an `enterCode` step.
public struct EnterCodePayload: Codable, Sendable, Equatable {
    /// Where the code went, masked (`a•••@example.com`).
    public var destination: String
    /// How many digits the code has.
    public var codeLength: Int
    /// When the current code stops being valid.
    public var expiresAt: Date
    /// The earliest moment a new code may be requested.
    public var resendAt: Date
    /// Email or SMS.
    public var channel: CodeChannel
    /// Wrong attempts left before the flow must restart.
    public var attemptsRemaining: Int
    /// `true` when the message also carries a sign-in link (method `signInLink`): opened in the
    /// app, it completes the flow (``SubmitLinkRequest``); opened on another device and approved
    /// there, the flow moves on at the next `poll`. `nil` for a code alone.
    public var linkSent: Bool?
    /// With ``linkSent``, how many seconds to wait between polls of the step's `poll` action.
    public var pollInterval: Int?

    /// Creates a code payload with the given values.
    ///
    /// - Parameters:
    ///   - destination: Where the code went, masked.
    ///   - codeLength: How many digits the code has.
    ///   - expiresAt: When the current code stops being valid.
    ///   - resendAt: The earliest moment a new code may be requested.
    ///   - channel: Email or SMS.
    ///   - attemptsRemaining: Wrong attempts left before the flow must restart.
    ///   - linkSent: Whether the message also carries a sign-in link.
    ///   - pollInterval: With a link, the seconds between polls.
    public init(
        destination: String, codeLength: Int, expiresAt: Date, resendAt: Date, channel: CodeChannel,
        attemptsRemaining: Int, linkSent: Bool? = nil, pollInterval: Int? = nil
    ) {
        self.destination = destination
        self.codeLength = codeLength
        self.expiresAt = expiresAt
        self.resendAt = resendAt
        self.channel = channel
        self.attemptsRemaining = attemptsRemaining
        self.linkSent = linkSent
        self.pollInterval = pollInterval
    }
}
