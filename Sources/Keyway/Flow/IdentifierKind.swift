import Foundation
import KeywayProtocol

/// What an identifier the app started a flow with looks like, for
/// ``PrimaryMethodSelectionPolicy/automaticFromIdentifier``.
enum IdentifierKind: Equatable {
    /// `local@domain.tld`.
    case email
    /// An E.164 number: `+` then 8 to 15 digits, spaces and dashes ignored.
    case phone
    /// Neither.
    case other

    init(_ identifier: String) {
        let trimmed = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        if Self.isPhone(trimmed) {
            self = .phone
        } else if Self.isEmail(trimmed) {
            self = .email
        } else {
            self = .other
        }
    }

    /// The method this kind of identifier makes obvious, if any.
    var method: AuthenticationMethod? {
        switch self {
        case .email: .emailOtp
        case .phone: .smsOtp
        case .other: nil
        }
    }

    private static func isPhone(_ text: String) -> Bool {
        let compact = text.filter { $0 != " " && $0 != "-" }
        guard compact.first == "+" else { return false }
        let digits = compact.dropFirst()
        return (8...15).contains(digits.count) && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func isEmail(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
}
