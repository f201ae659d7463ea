import Foundation

/// What an `enterPassword` step is for.
public struct PasswordPurpose: OpenStringValue {
    /// The purpose as the wire spells it.
    public let rawValue: String
    /// Creates a purpose from its wire spelling; one this version does not know is kept as it is.
    ///
    /// - Parameter rawValue: The purpose as the wire spells it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Sign in with the account's password.
    public static let signIn = PasswordPurpose(rawValue: "signIn")
    /// Choose the password of a new account.
    public static let create = PasswordPurpose(rawValue: "create")
    /// Choose a new password for the account.
    public static let change = PasswordPurpose(rawValue: "change")
    /// Choose a new password after a code sent to the identifier (and the second factor, where
    /// one is asked) proved who the user is ("Forgot password?"); the sign-in completes once it
    /// is set.
    public static let reset = PasswordPurpose(rawValue: "reset")

}

/// Payload of an `enterPassword` step.
public struct EnterPasswordPayload: Codable, Sendable, Equatable {
    /// Sign in, create, change or reset.
    public var purpose: PasswordPurpose
    /// The shortest password accepted, when choosing one.
    public var minimumLength: Int?

    /// Creates a password payload with the given values.
    ///
    /// - Parameters:
    ///   - purpose: Sign in, create or change.
    ///   - minimumLength: The shortest password accepted, when choosing one.
    public init(purpose: PasswordPurpose, minimumLength: Int? = nil) {
        self.purpose = purpose
        self.minimumLength = minimumLength
    }
}
