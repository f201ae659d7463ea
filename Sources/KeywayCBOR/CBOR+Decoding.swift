import Foundation

extension CBOR {
    /// Why CBOR input was refused.
    public struct DecodingError: Error, Equatable, Sendable {
        /// What is wrong with the input, as a phrase.
        public let reason: String

        /// A refusal saying `reason`.
        public init(reason: String) {
            self.reason = reason
        }
    }

    /// The largest input either decoding function reads: 64 KiB, far more than any attestation
    /// object, COSE key or App Attest object needs.
    public static let maximumInputSize = 64 * 1024

    /// Decodes exactly one item from `data`: trailing bytes, items nested deeper than
    /// `maximumDepth`, lengths past the end of the input and inputs over ``maximumInputSize``
    /// bytes are refused.
    ///
    /// - Parameters:
    ///   - data: The encoded item.
    ///   - maximumDepth: How deeply arrays, maps and tags may nest.
    /// - Returns: The item.
    /// - Throws: ``DecodingError`` saying why the input was refused.
    public static func decode(_ data: Data, maximumDepth: Int = 16) throws(DecodingError) -> CBOR {
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
    public static func decodePrefix(_ data: Data, maximumDepth: Int = 16) throws(DecodingError) -> (item: CBOR, length: Int) {
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
