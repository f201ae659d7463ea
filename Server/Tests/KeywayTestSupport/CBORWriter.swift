import Foundation

/// Writes the CBOR items (RFC 8949) App Attest objects are made of, to build them in tests.
public indirect enum CBORItem: Sendable {
    case unsigned(UInt64)
    case negative(Int64)
    case bytes(Data)
    case text(String)
    case array([CBORItem])
    case map([(CBORItem, CBORItem)])

    /// The item's encoding, with definite lengths.
    public var encoded: Data {
        switch self {
        case .unsigned(let value): return Self.head(0, value)
        case .negative(let value): return Self.head(1, UInt64(-1 - value))
        case .bytes(let data): return Self.head(2, UInt64(data.count)) + data
        case .text(let text): return Self.head(3, UInt64(text.utf8.count)) + Data(text.utf8)
        case .array(let items): return items.reduce(Self.head(4, UInt64(items.count))) { $0 + $1.encoded }
        case .map(let pairs):
            return pairs.reduce(Self.head(5, UInt64(pairs.count))) { $0 + $1.0.encoded + $1.1.encoded }
        }
    }

    private static func head(_ major: UInt8, _ value: UInt64) -> Data {
        let top = major << 5
        switch value {
        case 0..<24: return Data([top | UInt8(value)])
        case 24..<0x100: return Data([top | 24, UInt8(value)])
        case 0x100..<0x1_0000: return Data([top | 25]) + bigEndian(value, 2)
        case 0x1_0000..<0x1_0000_0000: return Data([top | 26]) + bigEndian(value, 4)
        default: return Data([top | 27]) + bigEndian(value, 8)
        }
    }

    private static func bigEndian(_ value: UInt64, _ width: Int) -> Data {
        Data((0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) })
    }
}
