import Foundation

/// A CBOR data item (RFC 8949), as far as WebAuthn attestation objects, COSE keys and App Attest
/// objects use them: unsigned and negative integers, byte and text strings, arrays, maps and the
/// simple values `false`, `true` and `null`.
///
/// One type for both directions: ``encoded`` writes an item deterministically (what an
/// authenticator sends), ``decode(_:maximumDepth:)`` reads one strictly and within bounds (what a
/// server receives). Tags are read and dropped; indefinite lengths, floating point and maps that
/// repeat a key are refused.
public enum CBOR: Hashable, Sendable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer (major type 1), holding `-1 - value`: `.negative(0)` is -1.
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes(Data)
    /// A UTF-8 text string (major type 3).
    case text(String)
    /// An array (major type 4).
    case array([CBOR])
    /// A map (major type 5), its pairs in the order given or read. Keys must differ.
    case map([(CBOR, CBOR)])
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// The integer item holding `value`: ``unsigned(_:)`` when it is not negative, else
    /// ``negative(_:)``.
    public static func int(_ value: Int) -> CBOR {
        // -1 - value is ~value, which cannot overflow, even at Int.min.
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(~value))
    }

    /// Whether two items are the same, maps pair by pair in order.
    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        default: false
        }
    }

    /// Hashes the item consistently with `==`, so map keys can be kept in a set.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let value): hasher.combine(0); hasher.combine(value)
        case .negative(let value): hasher.combine(1); hasher.combine(value)
        case .bytes(let data): hasher.combine(2); hasher.combine(data)
        case .text(let text): hasher.combine(3); hasher.combine(text)
        case .array(let items): hasher.combine(4); hasher.combine(items)
        case .map(let pairs):
            hasher.combine(5)
            hasher.combine(pairs.count)
            for (key, value) in pairs {
                hasher.combine(key)
                hasher.combine(value)
            }
        case .bool(let value): hasher.combine(6); hasher.combine(value)
        case .null: hasher.combine(7)
        }
    }
}

extension CBOR {
    /// The value under `key` of a map item; `nil` for another item or a missing key.
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// The value under the text key `key` of a map (attestation objects use them).
    public subscript(key: String) -> CBOR? {
        self[.text(key)]
    }

    /// The value under the integer key `key` of a map (COSE keys use them).
    public subscript(key: Int) -> CBOR? {
        self[.int(key)]
    }

    /// The keys of a map item, in their order; empty for another item.
    public var keys: [CBOR] {
        guard case .map(let pairs) = self else { return [] }
        return pairs.map(\.0)
    }

    /// The value of an integer item, when it fits an `Int`.
    public var intValue: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    /// The pairs of a map item.
    public var mapValue: [(CBOR, CBOR)]? {
        if case .map(let pairs) = self { return pairs }
        return nil
    }

    /// The bytes of a byte-string item.
    public var bytesValue: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    /// The text of a text-string item.
    public var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The items of an array item.
    public var arrayValue: [CBOR]? {
        if case .array(let items) = self { return items }
        return nil
    }
}
