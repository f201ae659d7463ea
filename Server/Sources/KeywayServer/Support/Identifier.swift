/// A normalized user identifier: an email address (NFKC, lower-cased) or an E.164 phone number.
enum Identifier: Sendable, Equatable {
    case email(String)
    case phone(String)

    /// Reads an identifier as typed: a value starting with `+` (or made of digits and
    /// separators) is a phone number, anything with `@` an email address; `nil` when neither parses.
    init?(parsing raw: String) {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.contains("@") {
            guard let email = EmailAddress.normalize(trimmed) else { return nil }
            self = .email(email)
        } else {
            guard let phone = PhoneNumber.normalize(trimmed) else { return nil }
            self = .phone(phone)
        }
    }

    /// Reads the normalized form stored in a flow.
    init(stored: String) {
        self = stored.hasPrefix("+") ? .phone(stored) : .email(stored)
    }

    /// The normalized form.
    var value: String {
        switch self {
        case .email(let value), .phone(let value): value
        }
    }

    /// The identifier for display, masked.
    var masked: String {
        switch self {
        case .email(let value): EmailAddress.mask(value)
        case .phone(let value): PhoneNumber.mask(value)
        }
    }

    var email: String? {
        if case .email(let value) = self { return value }
        return nil
    }

    var phone: String? {
        if case .phone(let value) = self { return value }
        return nil
    }
}
