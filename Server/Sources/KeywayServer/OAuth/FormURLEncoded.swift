import Foundation

/// `application/x-www-form-urlencoded` bodies (the token endpoint's format).
enum FormURLEncoded {
    enum ParseError: Error, Equatable {
        case duplicate(String)
        case malformed
    }

    /// Parses `a=1&b=2`. A parameter present twice is an error (RFC 6749 §3.2); empty values
    /// count as absent (RFC 6749 §3.1).
    static func parse(_ data: Data) throws(ParseError) -> [String: String] {
        guard let text = String(data: data, encoding: .utf8) else { throw .malformed }
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { throw .malformed }
            let value = parts.count > 1 ? decode(parts[1]) : ""
            guard let value else { throw .malformed }
            if value.isEmpty { continue }
            if result[name] != nil { throw .duplicate(name) }
            result[name] = value
        }
        return result
    }

    /// Decodes one component: `+` is a space, `%XX` an octet.
    static func decode(_ component: Substring) -> String? {
        component.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
