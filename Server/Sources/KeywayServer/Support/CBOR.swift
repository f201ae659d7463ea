import Foundation

/// A CBOR data item (RFC 8949), as far as App Attest objects, WebAuthn attestation objects and
/// COSE keys use them: unsigned and negative integers, byte and text strings, arrays, maps, and
/// the simple values. Tags are read and dropped; indefinite lengths, floating point and maps
/// that repeat a key are refused, and so is any input over ``maximumInputSize`` bytes.
enum CBOR: Hashable, Sendable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer (major type 1), holding `-1 - value`.
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes(Data)
    /// A UTF-8 text string (major type 3).
    case text(String)
    /// An array (major type 4).
    case array([CBOR])
    /// A map (major type 5), its pairs in the order of the encoding.
    case map([(CBOR, CBOR)])
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// Whether two items are the same, maps pair by pair in order.
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

    /// Hashes the item consistently with `==`, so map keys can be kept in a set.
    func hash(into hasher: inout Hasher) {
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

    /// The value of an integer item, when it fits an `Int`.
    var intValue: Int? {
        switch self {
        case .unsigned(let value): value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): value <= UInt64(Int.max) ? -1 - Int(value) : nil
        default: nil
        }
    }

    /// The pairs of a map item.
    var mapValue: [(CBOR, CBOR)]? {
        if case .map(let pairs) = self { return pairs }
        return nil
    }

    /// The bytes of a byte-string item.
    var bytesValue: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    /// The text of a text-string item.
    var textValue: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    /// The items of an array item.
    var arrayValue: [CBOR]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// Why CBOR input was refused.
    struct DecodingError: Error, Equatable {
        /// What is wrong with the input, as a phrase.
        let reason: String
    }

    /// The largest input either decoding function reads: 64 KiB, far more than any attestation
    /// object, COSE key or App Attest object needs.
    static let maximumInputSize = 64 * 1024

    /// Decodes exactly one item from `data`: trailing bytes, items nested deeper than
    /// `maximumDepth`, lengths past the end of the input and inputs over ``maximumInputSize``
    /// bytes are refused.
    ///
    /// - Parameters:
    ///   - data: The encoded item.
    ///   - maximumDepth: How deeply arrays, maps and tags may nest.
    /// - Returns: The item.
    /// - Throws: ``DecodingError`` saying why the input was refused.
    static func decode(_ data: Data, maximumDepth: Int = 16) throws(DecodingError) -> CBOR {
        let (item, length) = try decodePrefix(data, maximumDepth: maximumDepth)
        guard length == data.count else { throw DecodingError(reason: "trailing bytes after the item") }
        return item
    }

    /// Decodes the one item at the start of `data` and says how many bytes it took, for inputs
    /// where an item is followed by more (authenticator data holds a COSE key followed by the
    /// extensions). Items nested deeper than `maximumDepth`, lengths past the end of the input
    /// and inputs over ``maximumInputSize`` bytes are refused.
    ///
    /// - Parameters:
    ///   - data: The bytes that start with an encoded item.
    ///   - maximumDepth: How deeply arrays, maps and tags may nest.
    /// - Returns: The item and the number of bytes its encoding took.
    /// - Throws: ``DecodingError`` saying why the input was refused.
    static func decodePrefix(_ data: Data, maximumDepth: Int = 16) throws(DecodingError) -> (item: CBOR, length: Int) {
        guard data.count <= maximumInputSize else {
            throw DecodingError(reason: "the input is larger than \(maximumInputSize) bytes")
        }
        var reader = Reader(bytes: [UInt8](data), maximumDepth: maximumDepth)
        let item = try reader.item(depth: 0)
        return (item, reader.offset)
    }

    /// Reads items from the start of a byte array, keeping its place.
    private struct Reader {
        let bytes: [UInt8]
        let maximumDepth: Int
        var offset = 0

        /// The next byte.
        mutating func byte() throws(DecodingError) -> UInt8 {
            guard offset < bytes.count else { throw DecodingError(reason: "the input ends inside an item") }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// The next `count` bytes.
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

        /// The next item, at nesting depth `depth`.
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
                var keys: Set<CBOR> = []
                pairs.reserveCapacity(count)
                for _ in 0..<count {
                    let key = try item(depth: depth + 1)
                    // A set, not a scan of the pairs: a large map costs linear time, not quadratic.
                    guard keys.insert(key).inserted else { throw DecodingError(reason: "a map repeats a key") }
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
