import Foundation

/// A project's hosted-page theme as stored: `projects.theme` holds a ``HostedTheme`` as JSON
/// (members `name`, `logoURL`, `primaryColor`, `stylesheetURL`), and these are its rules.
extension HostedTheme {
    /// The longest name a theme may show.
    static let maximumNameLength = 100
    /// The longest URL a theme may name.
    static let maximumURLLength = 2000

    /// The theme stored as `json`; `nil` when none is stored or it does not decode.
    static func decode(json: String?) -> HostedTheme? {
        guard let json else { return nil }
        return try? JSONDecoder().decode(HostedTheme.self, from: Data(json.utf8))
    }

    /// The theme as the JSON stored in `projects.theme` (sorted keys).
    func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// What is wrong with `name` as a theme's name, or `nil`; check it trimmed.
    static func problem(withName name: String) -> String? {
        guard !name.isEmpty, name.count <= maximumNameLength else {
            return "A theme's name is 1 to \(maximumNameLength) characters."
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return "A theme's name has no control characters."
        }
        return nil
    }

    /// What is wrong with `url` as a logo or stylesheet URL, or `nil`: an absolute `https` URL
    /// with a host, without user information, of printable ASCII without spaces, quotes or angle
    /// brackets, at most 2,000 characters.
    static func problem(withURL url: String) -> String? {
        guard !url.isEmpty, url.utf8.count <= maximumURLLength,
            url.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F && !"\"'<>\\`".unicodeScalars.contains($0) })
        else {
            return "A URL is printable ASCII without spaces, quotes or angle brackets, \(maximumURLLength) characters at most."
        }
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https" else {
            return "Use an absolute https URL (https://…)."
        }
        guard let host = components.host, !host.isEmpty else { return "An https URL names a host." }
        guard components.user == nil, components.password == nil else {
            return "A URL has no user information (user:password@)."
        }
        return nil
    }

    /// `color` as stored (`#rrggbb`, lowercase), or `nil` when it is not a `#rrggbb` colour.
    static func normalizedColor(_ color: String) -> String? {
        let digits = color.dropFirst()
        guard color.first == "#", digits.count == 6, digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII)
        else { return nil }
        return color.lowercased()
    }
}
