import Foundation
import KeywayTestSupport
import Testing

@testable import KeywayServer

@Suite("CBOR decoding")
struct CBORTests {
    @Test("RFC 8949 Appendix A examples decode")
    func appendixA() throws {
        let cases: [(String, CBOR)] = [
            ("00", .unsigned(0)), ("17", .unsigned(23)), ("1818", .unsigned(24)), ("1903e8", .unsigned(1000)),
            ("1bffffffffffffffff", .unsigned(UInt64.max)), ("20", .negative(0)), ("3903e7", .negative(999)),
            ("40", .bytes(Data())), ("4401020304", .bytes(Data([1, 2, 3, 4]))), ("6161", .text("a")),
            ("62c3bc", .text("ü")), ("80", .array([])), ("83010203", .array([.unsigned(1), .unsigned(2), .unsigned(3)])),
            ("a201020304", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .unsigned(4))])),
            ("f4", .bool(false)), ("f5", .bool(true)), ("f6", .null),
            ("c074323031332d30332d32315432303a30343a30305a", .text("2013-03-21T20:04:00Z")),
        ]
        for (hex, expected) in cases {
            #expect(try CBOR.decode(Self.bytes(hex)) == expected, "\(hex)")
        }
    }

    @Test("What the writer encodes, the decoder reads back")
    func roundTrip() throws {
        let item = CBORItem.map([
            (.text("fmt"), .text("apple-appattest")), (.negative(-7), .bytes(Data(repeating: 9, count: 300))),
            (.unsigned(70_000), .array([.unsigned(1), .negative(-1)])),
        ])
        let decoded = try CBOR.decode(item.encoded)
        #expect(decoded["fmt"] == .text("apple-appattest"))
        #expect(decoded[-7]?.bytesValue?.count == 300)
        #expect(decoded[70_000] == .array([.unsigned(1), .negative(0)]))
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
    }

    static func bytes(_ hex: String) -> Data {
        let clean = hex.replacingOccurrences(of: " ", with: "")
        return Data(stride(from: 0, to: clean.count, by: 2).map { offset in
            let start = clean.index(clean.startIndex, offsetBy: offset)
            return UInt8(clean[start..<clean.index(start, offsetBy: 2)], radix: 16)!
        })
    }
}
