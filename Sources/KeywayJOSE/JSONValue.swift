import Foundation

/// Any JSON value, for headers and claim sets whose members are not all known in advance.
public enum JSONValue: Codable, Sendable, Equatable {
    /// A string.
    case string(String)
    /// A number; integers are kept as `Double`.
    case number(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An array.
    case array([JSONValue])
    /// An object, by member name.
    case object([String: JSONValue])
    /// `null`.
    case null

    /// Decodes any JSON value.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the value is none of the JSON types.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Encodes the value; a whole number below 9×10^15 in magnitude is written as an integer.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error when a value cannot be encoded (a number that is not finite,
    ///   for `JSONEncoder`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value):
            if value.rounded() == value, abs(value) < 9e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .bool(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }

    /// The string, if this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number, if this is one.
    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as whole seconds since the epoch (an RFC 7519 NumericDate, any fraction dropped),
    /// if this is a finite number within ±2^53: the only times worth comparing, and the only ones
    /// that convert to an integer without trapping. Arithmetic on the result (adding a leeway or a
    /// lifetime) cannot overflow either.
    public var numericDate: Int64? {
        guard case .number(let value) = self, value.isFinite, abs(value) <= 9_007_199_254_740_992 else { return nil }
        return Int64(value)
    }
}

extension JSONValue {
    /// Compact JSON with object keys sorted and `/` unescaped: the same text `JSONEncoder` writes
    /// with `[.sortedKeys, .withoutEscapingSlashes]`, without its per-value overhead. Integral
    /// numbers below 2^53 are written without a fraction.
    ///
    /// A number that is not finite is written as `null`.
    ///
    /// - Returns: The JSON text.
    public func serialized() -> String {
        var output = ""
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    private func write(to output: inout String) {
        switch self {
        case .string(let string):
            Self.writeString(string, to: &output)
        case .number(let number):
            if number.rounded() == number, abs(number) < 9_007_199_254_740_992 {
                output += String(Int64(number))
            } else {
                output += number.isFinite ? "\(number)" : "null"
            }
        case .bool(let bool):
            output += bool ? "true" : "false"
        case .null:
            output += "null"
        case .array(let values):
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                value.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, to: &output)
                output += ":"
                members[key]!.write(to: &output)
            }
            output += "}"
        }
    }

    private static let hexDigits = Array("0123456789abcdef")

    private static func writeString(_ string: String, to output: inout String) {
        output += "\""
        // Most strings (identifiers, URLs, tokens) need no escape: copied whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += string
            output += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20:
                output += "\\u00"
                output.append(hexDigits[Int(scalar.value >> 4)])
                output.append(hexDigits[Int(scalar.value & 0xF)])
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
