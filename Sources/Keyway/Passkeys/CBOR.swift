import Foundation

/// A CBOR data item (RFC 8949), as much of it as WebAuthn's authenticator side writes: integers,
/// byte strings, text strings, arrays, maps and booleans. ``encoded`` is deterministic: the
/// shortest heads, definite lengths, and map keys in the canonical order of CTAP2 (RFC 7049 §3.9:
/// shorter encoded keys first, then bytewise), so a COSE key's integer keys come out as 1, 3, -1,
/// -2, -3 and an attestation object's as `fmt`, `attStmt`, `authData`.
enum CBOR: Sendable, Equatable {
    /// An integer: major type 0 when non-negative, 1 when negative.
    case int(Int)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A UTF-8 text string (major type 3).
    case text(String)
    /// An array (major type 4).
    indirect case array([CBOR])
    /// A map (major type 5), its entries in any order: they are sorted when encoded. Keys must
    /// differ.
    indirect case map([Entry])
    /// `true` or `false` (major type 7).
    case bool(Bool)

    /// One key and value of a ``map(_:)``.
    struct Entry: Sendable, Equatable {
        var key: CBOR
        var value: CBOR

        init(_ key: CBOR, _ value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    /// The item's deterministic encoding.
    var encoded: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .int(let value):
            if value >= 0 {
                Self.head(major: 0, UInt64(value), into: &out)
            } else {
                // -1 - value, without overflowing at Int.min.
                Self.head(major: 1, UInt64(bitPattern: Int64(~value)), into: &out)
            }
        case .bytes(let bytes):
            Self.head(major: 2, UInt64(bytes.count), into: &out)
            out += bytes
        case .text(let text):
            let utf8 = Array(text.utf8)
            Self.head(major: 3, UInt64(utf8.count), into: &out)
            out += utf8
        case .array(let items):
            Self.head(major: 4, UInt64(items.count), into: &out)
            for item in items { item.encode(into: &out) }
        case .map(let entries):
            Self.head(major: 5, UInt64(entries.count), into: &out)
            let sorted = entries.map { (key: $0.key.encoded, value: $0.value.encoded) }.sorted { Self.canonicallyBefore($0.key, $1.key) }
            for entry in sorted {
                out += entry.key
                out += entry.value
            }
        case .bool(let value):
            out.append(value ? 0xF5 : 0xF4)
        }
    }

    /// Whether the encoded key `a` comes before `b`: the shorter first, then bytewise.
    private static func canonicallyBefore(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }

    /// The shortest head of `major` with `value` (RFC 8949 §3).
    private static func head(major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24:
            out.append(type | UInt8(value))
        case 24...0xFF:
            out += [type | 24, UInt8(value)]
        case 0x100...0xFFFF:
            out += [type | 25] + bigEndian(value, bytes: 2)
        case 0x1_0000...0xFFFF_FFFF:
            out += [type | 26] + bigEndian(value, bytes: 4)
        default:
            out += [type | 27] + bigEndian(value, bytes: 8)
        }
    }

    /// The low `bytes` bytes of `value`, most significant first.
    static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
