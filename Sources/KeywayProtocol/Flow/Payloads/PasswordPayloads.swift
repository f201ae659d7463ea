import Foundation

/// What an `enterPassword` step is for.
public struct PasswordPurpose: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Sign in with the account's password.
    public static let signIn = PasswordPurpose(rawValue: "signIn")
    /// Choose the password of a new account.
    public static let create = PasswordPurpose(rawValue: "create")
    /// Choose a new password for the account.
    public static let change = PasswordPurpose(rawValue: "change")

}

/// Payload of an `enterPassword` step.
public struct EnterPasswordPayload: Codable, Sendable, Equatable {
    /// Sign in, create or change.
    public var purpose: PasswordPurpose
    /// The shortest password accepted, when choosing one.
    public var minimumLength: Int?

    public init(purpose: PasswordPurpose, minimumLength: Int? = nil) {
        self.purpose = purpose
        self.minimumLength = minimumLength
    }
}
