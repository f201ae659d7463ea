import Foundation
import KeywayProtocol

/// One input of a screen, from a field of the step's action.
public struct ScreenInput: Sendable, Equatable {
    /// How to render it.
    public enum Kind: Sendable, Equatable {
        /// A one-time code of `length` digits.
        case code(length: Int?)
        /// Free text.
        case text
        /// An email address.
        case email
        /// A phone number in international form.
        case phone
        /// The account's password.
        case password
        /// A new password (`minimumLength` when known).
        case newPassword(minimumLength: Int?)
        /// One of `options`.
        case choice(options: [FieldOption])
        /// Yes or no.
        case toggle
        /// A field the server sends for an input type this SDK does not know: render as text.
        case other(FieldType)
    }

    /// The keyboard a touch screen shows for it.
    public enum Keyboard: String, Sendable, Equatable {
        /// Letters and digits.
        case standard
        /// Digits only.
        case numberPad
        /// Made for email addresses.
        case email
        /// Made for phone numbers.
        case phone
    }

    /// The field's name: the key of its value.
    public var name: String
    /// What to call it (the field's label, else its name).
    public var label: String
    /// How to render it.
    public var kind: Kind
    /// The keyboard a touch screen shows for it.
    public var keyboard: Keyboard
    /// The content type for autofill (`one-time-code`, `email`, `tel`, `current-password`,
    /// `new-password`), as the server hints it.
    public var contentType: String?
    /// A hint shown while it is empty (`+14155550123`).
    public var placeholder: String?
    /// Whether it must be filled in.
    public var isRequired: Bool
    /// A value to start with.
    public var initialValue: String?
    /// The field as the server sent it, for local checks (``KeywayProtocol/Field/validate(_:)``).
    public var field: Field
    /// Why the last submitted value was refused, when it was.
    public var error: String?
    /// The language of the reasons ``validate(_:)`` gives of its own.
    public var language: ScreenLanguage

    /// The input of `field`, rendered as `kind`, with the reason its last value was refused.
    ///
    /// Its name, label, autofill content type, placeholder, requirement and initial value come
    /// from `field`; its keyboard from `kind`.
    ///
    /// - Parameters:
    ///   - field: The field as the server sent it.
    ///   - kind: How to render it.
    ///   - error: Why the last submitted value was refused, if it was.
    ///   - language: The language of the reasons ``validate(_:)`` gives of its own.
    public init(field: Field, kind: Kind, error: String? = nil, language: ScreenLanguage = .current) {
        self.name = field.name
        self.label = field.label ?? field.name
        self.kind = kind
        self.keyboard =
            switch kind {
            case .code: .numberPad
            case .email: .email
            case .phone: .phone
            default: .standard
            }
        self.contentType = field.autocomplete
        self.placeholder = field.placeholder
        self.isRequired = field.required
        self.initialValue = field.value
        self.field = field
        self.error = error
        self.language = language
    }

    /// Checks `value` as the server would before it is sent — the field's rules, and the minimum
    /// length of a new password —: `nil` when it passes, else the reason for the user.
    ///
    /// - Parameter value: The user's answer, or `nil` when untouched.
    /// - Returns: The reason the value fails, or `nil`.
    public func validate(_ value: String?) -> String? {
        if let reason = field.validate(value)?.reason { return translated(reason) }
        if case .newPassword(let minimumLength?) = kind, let value, !value.isEmpty, value.count < minimumLength {
            return language("Use at least %@ characters.", "\(minimumLength)")
        }
        return nil
    }

    /// The SDK's sentence for a broken field rule (``KeywayProtocol/Field/validate(_:)`` writes
    /// English) in the input's language.
    private func translated(_ reason: String) -> String {
        if let minLength = field.minLength, reason == "Enter at least \(minLength) characters." {
            return language("Enter at least %@ characters.", "\(minLength)")
        }
        if let maxLength = field.maxLength, reason == "Enter at most \(maxLength) characters." {
            return language("Enter at most %@ characters.", "\(maxLength)")
        }
        if let options = field.options, reason == "Choose one of: \(options.map(\.label).joined(separator: ", "))." {
            return language("Choose one of: %@.", options.map { language.sent($0.label) }.joined(separator: ", "))
        }
        return language.sent(reason)
    }

    /// What the input sends for `value` (the user's answer, `nil` when untouched), as the server
    /// reads it: a toggle sends `"true"` or `"false"` (from `yes`/`no`, `y`/`n`, `on`/`off`…); an
    /// untouched input its initial value, else `""`.
    ///
    /// - Parameter value: The user's answer, or `nil` when untouched.
    /// - Returns: The value the request carries.
    public func submittedValue(for value: String?) -> String { field.submittedValue(for: value) }

    /// What the input keeps of `text` as the user types or pastes it: a one-time code keeps its
    /// digits 0–9, at most its length (a pasted `123 456`, or `Your code is 123456.`); any other
    /// input keeps `text` as it is.
    ///
    /// - Parameter text: What the field holds after the user's edit.
    /// - Returns: What it should hold.
    public func typed(_ text: String) -> String {
        guard case .code(let length) = kind else { return text }
        let digits = text.filter { ("0"..."9").contains($0) }
        return length.map { String(digits.prefix($0)) } ?? digits
    }
}
