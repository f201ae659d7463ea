import Foundation
import KeywayCBOR
import Testing

@Suite("CBOR")
struct CBORTests {
    /// RFC 8949 Appendix A's examples within the accepted subset.
    static let appendixA: [(String, CBOR)] = [
        ("00", .unsigned(0)), ("01", .unsigned(1)), ("0a", .unsigned(10)), ("17", .unsigned(23)), ("1818", .unsigned(24)),
        ("1819", .unsigned(25)), ("1864", .unsigned(100)), ("1903e8", .unsigned(1000)), ("1a000f4240", .unsigned(1_000_000)),
        ("1b000000e8d4a51000", .unsigned(1_000_000_000_000)), ("1bffffffffffffffff", .unsigned(UInt64.max)),
        ("20", .negative(0)), ("29", .negative(9)), ("3863", .negative(99)), ("3903e7", .negative(999)),
        ("3bffffffffffffffff", .negative(UInt64.max)),
        ("40", .bytes(Data())), ("4401020304", .bytes(Data([1, 2, 3, 4]))), ("60", .text("")), ("6161", .text("a")),
        ("6449455446", .text("IETF")), ("62225c", .text("\"\\")), ("62c3bc", .text("ü")), ("63e6b0b4", .text("水")),
        ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
        ("8301820203820405", .array([.unsigned(1), .array([.unsigned(2), .unsigned(3)]), .array([.unsigned(4), .unsigned(5)])])),
        ("a0", .map([])), ("a201020304", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))])),
        ("a26161016162820203", .map([(.text("a"), .unsigned(1)), (.text("b"), .array([.unsigned(2), .unsigned(3)]))])),
        ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
    ]

    @Test("RFC 8949 Appendix A: each example decodes, and encodes back to the same bytes")
    func appendixAVectors() throws {
        for (hex, expected) in Self.appendixA {
            #expect(try CBOR.decode(Self.bytes(hex)) == expected, "\(hex)")
            #expect(expected.encoded == Self.bytes(hex), "\(hex)")
        }
        // A tag is read and dropped.
        #expect(try CBOR.decode(Self.bytes("c074323031332d30332d32315432303a30343a30305a")) == .text("2013-03-21T20:04:00Z"))
    }

    @Test("Integers take the shortest head, up to Int's bounds")
    func integers() {
        #expect(CBOR.int(0).encoded == Data([0x00]))
        #expect(CBOR.int(23).encoded == Data([0x17]))
        #expect(CBOR.int(24).encoded == Data([0x18, 0x18]))
        #expect(CBOR.int(256).encoded == Data([0x19, 0x01, 0x00]))
        #expect(CBOR.int(65536).encoded == Data([0x1A, 0x00, 0x01, 0x00, 0x00]))
        #expect(CBOR.int(1 << 32).encoded == Data([0x1B, 0, 0, 0, 1, 0, 0, 0, 0]))
        #expect(CBOR.int(-1).encoded == Data([0x20]))
        #expect(CBOR.int(-7).encoded == Data([0x26]))
        #expect(CBOR.int(-25).encoded == Data([0x38, 0x18]))
        #expect(CBOR.int(-257).encoded == Data([0x39, 0x01, 0x00]))
        #expect(CBOR.int(Int.min).encoded == Data([0x3B, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
        #expect(CBOR.int(Int.min).intValue == Int.min)
        #expect(CBOR.unsigned(UInt64.max).intValue == nil)
        #expect(CBOR.bytes(Data(repeating: 0, count: 300)).encoded.prefix(3) == Data([0x59, 0x01, 0x2C]))
    }

    @Test("Map keys are written in CTAP2's canonical order, whatever order they were given in")
    func canonicalMapOrder() throws {
        let map = CBOR.map([
            (.text("authData"), .int(0)), (.int(-3), .int(0)), (.text("fmt"), .int(0)), (.int(3), .int(0)),
            (.int(-1), .int(0)), (.text("attStmt"), .int(0)), (.int(1), .int(0)), (.int(-2), .int(0)),
        ])
        #expect(try CBOR.decode(map.encoded).keys == [
            .int(1), .int(3), .int(-1), .int(-2), .int(-3), .text("fmt"), .text("attStmt"), .text("authData"),
        ])
    }

    @Test("What is encoded is read back, maps by text and integer key")
    func roundTrip() throws {
        let item = CBOR.map([
            (.text("fmt"), .text("apple-appattest")), (.int(-7), .bytes(Data(repeating: 9, count: 300))),
            (.int(70_000), .array([.int(1), .int(-1)])),
        ])
        let decoded = try CBOR.decode(item.encoded)
        #expect(decoded["fmt"] == .text("apple-appattest"))
        #expect(decoded[-7]?.bytesValue?.count == 300)
        #expect(decoded[70_000] == .array([.unsigned(1), .negative(0)]))
        #expect(decoded["absent"] == nil)
        #expect(CBOR.text("not a map")["fmt"] == nil)
    }

    @Test("decodePrefix says how many bytes the item took")
    func prefix() throws {
        let (item, length) = try CBOR.decodePrefix(Self.bytes("a10102ffff"))
        #expect(item == .map([(.unsigned(1), .unsigned(2))]))
        #expect(length == 3)
        #expect(throws: CBOR.DecodingError(reason: "trailing bytes after the item")) { try CBOR.decode(Self.bytes("a10102ff")) }
    }

    @Test("Malformed input is refused without trapping or reserving memory")
    func refusals() {
        let refused = [
            "", "18", "5f", "9f", "bf", "f97e00", "fa47c35000", "62c3", "63616263ff", "a10102a0", "a2010201 02",
            "9bffffffffffffffff", "bbffffffffffffffff01", "5bffffffffffffffff", "a201020103", "6280ff",
        ]
        for hex in refused {
            #expect(throws: CBOR.DecodingError.self, "\(hex)") { try CBOR.decode(Self.bytes(hex)) }
        }
        let deep = Data(repeating: 0x81, count: 100) + Data([0x00])
        #expect(throws: CBOR.DecodingError(reason: "items are nested too deeply")) { try CBOR.decode(deep) }
        #expect(throws: CBOR.DecodingError(reason: "a map repeats a key")) { try CBOR.decode(Self.bytes("a201020103")) }
        let large = Data(repeating: 0, count: CBOR.maximumInputSize + 1)
        #expect(throws: CBOR.DecodingError.self) { try CBOR.decode(large) }
    }

    static func bytes(_ hex: String) -> Data {
        let clean = hex.replacingOccurrences(of: " ", with: "")
        return Data(stride(from: 0, to: clean.count, by: 2).map { offset in
            let start = clean.index(clean.startIndex, offsetBy: offset)
            return UInt8(clean[start..<clean.index(start, offsetBy: 2)], radix: 16)!
        })
    }
}
