import Foundation

/// A CBOR data item (RFC 8949), as far as App Attest objects use them: unsigned and negative
/// integers, byte and text strings, arrays, maps, and the simple values. Tags are read and
/// dropped; indefinite lengths and floating point are refused.
enum CBOR: Equatable, Sendable {
    case unsigned(UInt64)
    case negative(UInt64)
    case bytes(Data)
    case text(String)
    case array([CBOR])
    case map([(CBOR, CBOR)])
    case bool(Bool)
    case null

    static func == (lhs: CBOR, rhs: CBOR) -> Bool {
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

    /// The value under the text key `key` of a map.
    subscript(key: String) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.0 == .text(key) }?.1
    }

    /// The value under the integer key `key` of a map (COSE keys use them).
    subscript(key: Int) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        let wanted: CBOR = key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))
        return pairs.first { $0.0 == wanted }?.1
    }

    var bytesValue: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    var arrayValue: [CBOR]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// Why CBOR input was refused.
    struct DecodingError: Error, Equatable {
        let reason: String
    }

    /// Decodes exactly one item from `data`: trailing bytes, items nested deeper than
    /// `maximumDepth` and lengths past the end of the input are refused.
    static func decode(_ data: Data, maximumDepth: Int = 16) throws(DecodingError) -> CBOR {
        var reader = Reader(bytes: [UInt8](data), maximumDepth: maximumDepth)
        let item = try reader.item(depth: 0)
        guard reader.offset == reader.bytes.count else { throw DecodingError(reason: "trailing bytes after the item") }
        return item
    }

    private struct Reader {
        let bytes: [UInt8]
        let maximumDepth: Int
        var offset = 0

        mutating func byte() throws(DecodingError) -> UInt8 {
            guard offset < bytes.count else { throw DecodingError(reason: "the input ends inside an item") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func take(_ count: UInt64) throws(DecodingError) -> ArraySlice<UInt8> {
            guard count <= UInt64(bytes.count - offset) else {
                throw DecodingError(reason: "a length runs past the end of the input")
            }
            let end = offset + Int(count)
            defer { offset = end }
            return bytes[offset..<end]
        }

        /// The argument of an initial byte whose low five bits are `info`.
        mutating func argument(_ info: UInt8) throws(DecodingError) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24: return UInt64(try byte())
            case 25, 26, 27:
                let width = 1 << Int(info - 24)
                return try take(UInt64(width)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            default: throw DecodingError(reason: "indefinite lengths and reserved values are not accepted")
            }
        }

        /// A count of items that cannot exceed what is left of the input (each item is one byte
        /// at least), so a forged length cannot make the reader reserve memory.
        mutating func count(_ info: UInt8, perItem: Int) throws(DecodingError) -> Int {
            let count = try argument(info)
            guard count <= UInt64((bytes.count - offset) / perItem) else {
                throw DecodingError(reason: "a length runs past the end of the input")
            }
            return Int(count)
        }

        mutating func item(depth: Int) throws(DecodingError) -> CBOR {
            guard depth <= maximumDepth else { throw DecodingError(reason: "items are nested too deeply") }
            let initial = try byte()
            let major = initial >> 5
            let info = initial & 0x1F
            switch major {
            case 0: return .unsigned(try argument(info))
            case 1: return .negative(try argument(info))
            case 2: return .bytes(Data(try take(try argument(info))))
            case 3:
                guard let text = String(validating: try take(try argument(info)), as: UTF8.self) else {
                    throw DecodingError(reason: "a text string is not UTF-8")
                }
                return .text(text)
            case 4:
                let count = try count(info, perItem: 1)
                var items: [CBOR] = []
                items.reserveCapacity(count)
                for _ in 0..<count { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                let count = try count(info, perItem: 2)
                var pairs: [(CBOR, CBOR)] = []
                pairs.reserveCapacity(count)
                for _ in 0..<count {
                    let key = try item(depth: depth + 1)
                    guard !pairs.contains(where: { $0.0 == key }) else { throw DecodingError(reason: "a map repeats a key") }
                    pairs.append((key, try item(depth: depth + 1)))
                }
                return .map(pairs)
            case 6:
                _ = try argument(info)
                return try item(depth: depth + 1)
            default:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw DecodingError(reason: "floating-point and other simple values are not accepted")
                }
            }
        }
    }
}
