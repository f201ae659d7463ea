/// Phone numbers in E.164 form: `+`, a country code not starting with 0, at most 15 digits in all.
enum PhoneNumber {
    /// `+1 (555) 010-9967` → `+15550109967`: spaces, dashes, dots and parentheses dropped, digits
    /// in any Unicode form folded to ASCII; `nil` without a leading `+` or with a wrong length
    /// (8 to 15 digits).
    static func normalize(_ raw: String) -> String? {
        let folded = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        guard folded.hasPrefix("+") else { return nil }
        var digits = ""
        for character in folded.dropFirst() {
            if let ascii = character.asciiValue, (48...57).contains(ascii) {
                digits.append(character)
            } else if [" ", "-", ".", "(", ")"].contains(character) {
                continue
            } else {
                return nil
            }
        }
        guard (8...15).contains(digits.count), digits.first != "0" else { return nil }
        return "+" + digits
    }

    /// `+15550109967` → `+1•••••••67`: the first digit and the last two stay visible.
    static func mask(_ e164: String) -> String {
        let digits = Array(e164.dropFirst())
        guard digits.count > 3 else { return "•••" }
        return "+\(digits[0])" + String(repeating: "•", count: digits.count - 3) + String(digits.suffix(2))
    }
}

import Foundation
