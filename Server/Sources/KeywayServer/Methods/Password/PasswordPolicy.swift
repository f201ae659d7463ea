import Foundation
import KeywayPasswords
import KeywayProtocol

/// The rules a new password must meet: at least `minimumLength` characters (10 by default), at
/// most 128, not only whitespace, and not one of the 10,000 most common passwords
/// (case-insensitively; see ``CommonPasswords``). Length counts characters as a person sees them.
struct PasswordPolicy: Sendable, Equatable {
    /// The longest password accepted.
    static let maximumLength = 128

    /// The shortest password accepted.
    var minimumLength: Int

    /// A policy requiring `minimumLength` characters (at least 1).
    init(minimumLength: Int = 10) {
        self.minimumLength = max(1, min(minimumLength, Self.maximumLength))
    }

    /// Refuses `password` with the first rule it breaks, or returns quietly.
    func check(_ password: Sensitive<String>) throws(PasswordRejection) {
        let text = password.revealed
        if text.count > Self.maximumLength { throw .tooLong(maximum: Self.maximumLength) }
        if !text.isEmpty, text.allSatisfy(\.isWhitespace) { throw .blank }
        if text.count < minimumLength { throw .tooShort(minimum: minimumLength) }
        if CommonPasswords.contains(text) { throw .tooCommon }
    }
}

/// Why a new password was refused: a stable code for programs and a sentence for people.
struct PasswordRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable, machine-readable reason.
    enum Code: String, Sendable {
        /// Fewer characters than the policy's minimum.
        case passwordTooShort = "password_too_short"
        /// More than 128 characters.
        case passwordTooLong = "password_too_long"
        /// One of the 10,000 most common passwords.
        case passwordTooCommon = "password_too_common"
        /// Only whitespace.
        case passwordBlank = "password_blank"
    }

    /// The stable reason.
    let code: Code
    /// A sentence for the person choosing the password.
    let message: String

    var description: String { "\(code.rawValue): \(message)" }

    /// Shorter than `minimum` characters.
    static func tooShort(minimum: Int) -> PasswordRejection {
        PasswordRejection(code: .passwordTooShort, message: "Choose a password of at least \(minimum) characters.")
    }

    /// Longer than `maximum` characters.
    static func tooLong(maximum: Int) -> PasswordRejection {
        PasswordRejection(code: .passwordTooLong, message: "Choose a password of at most \(maximum) characters.")
    }

    /// Among the most common passwords.
    static let tooCommon = PasswordRejection(
        code: .passwordTooCommon,
        message: "This password is among the most commonly used ones, which attackers try first. Choose another.")

    /// Only whitespace.
    static let blank = PasswordRejection(
        code: .passwordBlank, message: "A password cannot be only spaces. Choose one with other characters.")
}
