import Foundation

extension CBOR {
    /// The item's deterministic encoding: the shortest heads, definite lengths, and map keys in
    /// the canonical order of CTAP2 (RFC 7049 §3.9: shorter encoded keys first, then bytewise),
    /// whatever order the pairs were given in. A COSE key's integer keys come out as 1, 3, -1,
    /// -2, -3 and an attestation object's as `fmt`, `attStmt`, `authData`.
    public var encoded: Data {
        var out: [UInt8] = []
        encode(into: &out)
        return Data(out)
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let value):
            Self.head(major: 0, value, into: &out)
        case .negative(let value):
            Self.head(major: 1, value, into: &out)
        case .bytes(let data):
            Self.head(major: 2, UInt64(data.count), into: &out)
            out += data
        case .text(let text):
            let utf8 = Array(text.utf8)
            Self.head(major: 3, UInt64(utf8.count), into: &out)
            out += utf8
        case .array(let items):
            Self.head(major: 4, UInt64(items.count), into: &out)
            for item in items { item.encode(into: &out) }
        case .map(let pairs):
            Self.head(major: 5, UInt64(pairs.count), into: &out)
            let sorted = pairs.map { (key: $0.0.encoded, value: $0.1.encoded) }.sorted { Self.canonicallyBefore($0.key, $1.key) }
            for pair in sorted {
                out += pair.key
                out += pair.value
            }
        case .bool(let value):
            out.append(value ? 0xF5 : 0xF4)
        case .null:
            out.append(0xF6)
        }
    }

    /// Whether the encoded key `a` comes before `b`: the shorter first, then bytewise.
    private static func canonicallyBefore(_ a: Data, _ b: Data) -> Bool {
        if a.count != b.count { return a.count < b.count }
        return a.lexicographicallyPrecedes(b)
    }

    /// The shortest head of `major` with `value` (RFC 8949 §3).
    private static func head(major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let type = major << 5
        switch value {
        case 0..<24: out.append(type | UInt8(value))
        case 24...0xFF: out += [type | 24, UInt8(value)]
        case 0x100...0xFFFF: out.append(type | 25); out += bigEndian(value, bytes: 2)
        case 0x1_0000...0xFFFF_FFFF: out.append(type | 26); out += bigEndian(value, bytes: 4)
        default: out.append(type | 27); out += bigEndian(value, bytes: 8)
        }
    }

    /// The low `bytes` bytes of `value`, most significant first.
    private static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
