/// What the system may fill an input with — a code from Messages or Mail, a saved address,
/// username or password, a new strong password —, from the server's hint
/// (``ScreenInput/contentType``, HTML's `autocomplete` tokens) or else the input's kind. The
/// SwiftUI screens set the matching `textContentType`.
public enum ScreenAutofill: String, Sendable, Equatable {
    /// A one-time code (`one-time-code`).
    case oneTimeCode
    /// An email address (`email`).
    case email
    /// A phone number (`tel`).
    case phone
    /// The account's user name (`username`, `webauthn` where the identifier also offers passkeys).
    case username
    /// The account's password (`current-password`).
    case password
    /// A new password the system may offer to make strong (`new-password`).
    case newPassword
}

extension ScreenInput {
    /// What the system may fill the input with; `nil` for nothing (a name, a choice).
    public var autofill: ScreenAutofill? {
        let tokens = (contentType ?? "").lowercased().split(separator: " ").map(String.init)
        for token in tokens {
            switch token {
            case "one-time-code": return .oneTimeCode
            case "email": return .email
            case "tel": return .phone
            case "username", "webauthn": return .username
            case "current-password": return .password
            case "new-password": return .newPassword
            default: continue
            }
        }
        return switch kind {
        case .code: .oneTimeCode
        case .email: .email
        case .phone: .phone
        case .password: .password
        case .newPassword: .newPassword
        default: nil
        }
    }
}
