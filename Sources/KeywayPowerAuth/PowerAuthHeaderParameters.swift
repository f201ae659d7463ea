import Foundation

/// The `PowerAuth name="value", …` syntax the three `X-PowerAuth-…` headers share, read strictly
/// by every role (the device SDK, the server, the backend kit): a malformed header is a
/// `PowerAuthError.malformedHeader` with a sentence, never a crash.
enum PowerAuthHeaderParameters {
    /// The longest header read.
    static let maxLength = 4096

    /// The header's parameters: `PowerAuth`, then `name="value"` pairs (names of letters and `_`)
    /// separated by spaces, tabs, line breaks and commas, each name once.
    static func parse(_ header: String, name: String) throws(PowerAuthError) -> [String: String] {
        guard header.utf8.count <= maxLength else { throw .malformedHeader("The \(name) header is too long.") }
        let scalars = Array(header.unicodeScalars)
        var index = 0
        func skip(_ predicate: (Unicode.Scalar) -> Bool) {
            while index < scalars.count, predicate(scalars[index]) { index += 1 }
        }
        skip { $0 == " " || $0 == "\t" }
        let prefix = Array("PowerAuth".unicodeScalars)
        guard scalars.count >= index + prefix.count, Array(scalars[index..<(index + prefix.count)]) == prefix else {
            throw .malformedHeader("The \(name) header starts with PowerAuth.")
        }
        index += prefix.count
        var parameters: [String: String] = [:]
        while true {
            skip { $0 == " " || $0 == "\t" || $0 == "," || $0 == "\n" || $0 == "\r" }
            if index >= scalars.count { break }
            let keyStart = index
            skip { ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || $0 == "_" }
            let key = String(String.UnicodeScalarView(scalars[keyStart..<index]))
            guard !key.isEmpty, index + 1 < scalars.count, scalars[index] == "=", scalars[index + 1] == "\"" else {
                throw .malformedHeader("The \(name) header is a list of key=\"value\" parameters.")
            }
            index += 2
            let valueStart = index
            skip { $0 != "\"" }
            guard index < scalars.count else { throw .malformedHeader("A value of the \(name) header is not closed.") }
            let value = String(String.UnicodeScalarView(scalars[valueStart..<index]))
            index += 1
            guard parameters[key] == nil else { throw .malformedHeader("The \(name) header repeats \(key).") }
            parameters[key] = value
        }
        return parameters
    }

    /// A known protocol version.
    static func version(_ text: String?) throws(PowerAuthError) -> PowerAuthVersion {
        guard let text, !text.isEmpty else { throw .malformedHeader("The protocol version is required.") }
        guard let version = PowerAuthVersion(rawValue: text) else {
            throw .malformedHeader("Protocol version \(text.prefix(16)) is not a PowerAuth 3 version.")
        }
        return version
    }

    /// An application key: the Base64 of 16 bytes, kept as its text.
    static func applicationKey(_ text: String?, field: String) throws(PowerAuthError) -> String {
        _ = try base64(text, field: field, count: 16, maxLength: 64)
        return text ?? ""
    }

    /// A value that must be there, at most `maxLength` bytes long.
    static func text(_ text: String?, field: String, maxLength: Int) throws(PowerAuthError) -> String {
        guard let text, !text.isEmpty else { throw .malformedHeader("\(field) is required.") }
        guard text.utf8.count <= maxLength else { throw .malformedHeader("\(field) is too long.") }
        return text
    }

    /// Strict standard Base64 of exactly `count` bytes (any number when `count` is `nil`).
    static func base64(_ text: String?, field: String, count: Int? = nil, maxLength: Int = 65_536) throws(PowerAuthError) -> Data {
        let text = try self.text(text, field: field, maxLength: maxLength)
        guard let data = Data(base64Encoded: text) else { throw .malformedHeader("\(field) is not valid Base64.") }
        if let count, data.count != count {
            throw .malformedHeader("\(field) has \(data.count) bytes, not \(count).")
        }
        return data
    }

    /// An identifier: 1 to 64 printable ASCII characters.
    static func identifier(_ text: String?, field: String) throws(PowerAuthError) -> String {
        let text = try self.text(text, field: field, maxLength: 64)
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .malformedHeader("\(field) is not a valid identifier.")
        }
        return text
    }
}
