import Foundation

/// The delivery channel of a one-time code.
public struct CodeChannel: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let email = CodeChannel(rawValue: "email")
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

    public init(
        destination: String, codeLength: Int, expiresAt: Date, resendAt: Date, channel: CodeChannel,
        attemptsRemaining: Int
    ) {
        self.destination = destination
        self.codeLength = codeLength
        self.expiresAt = expiresAt
        self.resendAt = resendAt
        self.channel = channel
        self.attemptsRemaining = attemptsRemaining
    }
}

/// Payload of a `completed` step.
public struct CompletedPayload: Codable, Sendable, Equatable {
    /// The authorization code to redeem at the token endpoint, once, within its lifetime.
    public var authCode: Sensitive<String>
    /// When the authorization code expires.
    public var expiresAt: Date
    /// The session the flow created; tokens carry it as `sid`.
    public var session: String
    /// Whether this flow created the user (a first sign-in) rather than finding an existing one.
    public var newUser: Bool?
    /// The trusted device this flow enrolled, when it enrolled one: the client keeps its key
    /// under this ID.
    public var trustedDeviceId: String?

    public init(
        authCode: Sensitive<String>, expiresAt: Date, session: String, newUser: Bool? = nil,
        trustedDeviceId: String? = nil
    ) {
        self.trustedDeviceId = trustedDeviceId
        self.authCode = authCode
        self.expiresAt = expiresAt
        self.session = session
        self.newUser = newUser
    }
}
