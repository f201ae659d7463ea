/// Email address syntax checks and masking.
enum EmailAddress {
    /// The address trimmed, in Unicode NFKC and lower-cased (so one address spelled two ways
    /// counts once), or `nil` when it is not a plausible address:
    /// one `@`, a non-empty local part of at most 64 characters, a dotted domain, at most 254
    /// characters in all, no whitespace or control characters, no invisible code points
    /// (zero-width characters, bidirectional controls, soft hyphens, variation selectors: the
    /// default-ignorable and format characters), and no label — the local part or a domain label —
    /// that mixes scripts the way look-alike addresses do, or hides a Latin look-alike of an ASCII
    /// letter among ASCII letters (``MixedScript``).
    static func normalize(_ raw: String) -> String? {
        let address = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces).lowercased()
        guard address.utf8.count <= 254 else { return nil }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64 else { return nil }
        let domain = parts[1]
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 63 }),
            !domain.hasPrefix("-")
        else { return nil }
        let forbidden: Set<Character> = [" ", "\t", "\n", "\r", "<", ">", "(", ")", "[", "]", ",", ";", ":", "\\", "\""]
        guard !address.contains(where: { forbidden.contains($0) || $0.isASCII && $0.asciiValue! < 0x20 }) else {
            return nil
        }
        let invisible: Set<Unicode.GeneralCategory> = [.control, .format, .privateUse, .surrogate, .unassigned]
        guard
            address.unicodeScalars.allSatisfy({
                !$0.properties.isDefaultIgnorableCodePoint && !invisible.contains($0.properties.generalCategory)
            })
        else { return nil }
        guard !MixedScript.isMixed(parts[0]), !labels.contains(where: { MixedScript.isMixed($0) }),
            !MixedScript.imitatesASCII(parts[0]), !labels.contains(where: { MixedScript.imitatesASCII($0) })
        else { return nil }
        return address
    }

    /// `alice@example.com` → `a•••@example.com`.
    static func mask(_ address: String) -> String {
        guard let at = address.firstIndex(of: "@"), let first = address.first else { return "•••" }
        return "\(first)•••\(address[at...])"
    }
}

import Foundation
