import Foundation

/// A secret value (a one-time code, a token, a client secret) that refuses to print itself.
///
/// `description`, `debugDescription`, string interpolation, `dump` and reflection all print a
/// mask, so a secret cannot leak into a log line, an error message or a `print` by accident.
/// Read the value itself through ``revealed`` where it must cross the wire.
///
/// Encoding and decoding use the plain value: the wire needs it.
public struct Sensitive<Value: Sendable>: Sendable {
    /// The mask printed in place of every sensitive value.
    public static var mask: String { "••••••" }

    /// The secret itself. Read it only to send it where it belongs.
    public let revealed: Value

    /// Wraps a secret value.
    ///
    /// - Parameter value: The secret.
    public init(_ value: Value) {
        self.revealed = value
    }
}

extension Sensitive: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The mask, never the value.
    public var description: String { Self.mask }
    /// `Sensitive(••••••)`, never the value.
    public var debugDescription: String { "Sensitive(\(Self.mask))" }
    /// A mirror without children, so `dump` and reflection show nothing of the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}

extension Sensitive: Equatable where Value: Equatable {}
extension Sensitive: Hashable where Value: Hashable {}

extension Sensitive: Codable where Value: Codable {
    /// Decodes the plain value.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the value is missing or of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.revealed = try container.decode(Value.self)
    }

    /// Encodes the plain value: the wire needs it.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error when the value cannot be encoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(revealed)
    }
}

// The one-character literals take the standard library's defaults, which call `init(stringLiteral:)`.
extension Sensitive: ExpressibleByStringLiteral, ExpressibleByUnicodeScalarLiteral,
    ExpressibleByExtendedGraphemeClusterLiteral where Value == String
{
    /// Wraps a string literal.
    ///
    /// - Parameter value: The secret.
    public init(stringLiteral value: String) { self.init(value) }
}
