import KeywayQR
import Testing

/// Compares symbols with those segno, an independent encoder, made for the same input (see
/// scripts/qr-segno-fixtures.py, which wrote SegnoFixtures.swift; it runs segno with its padding-bits step
/// set to the standard's rule, segno's only departure from ISO/IEC 18004 that these symbols meet).
@Suite("Cross-check against segno")
struct SegnoCrossCheckTests {
    @Test(arguments: SegnoFixtures.symbols)
    func forcedVersionAndMaskGiveTheSameModules(symbol: SegnoFixtures.Symbol) throws {
        let correction = try Self.correction(symbol.correction)
        let code = try QRCode(
            text: symbol.text, correction: correction, version: symbol.version, mask: symbol.forcedMask)
        #expect(code.size == symbol.rows.count)
        let differences = Self.differences(code, symbol.rows)
        #expect(differences.isEmpty, "\(differences.count) modules differ, first at \(differences.prefix(5))")
    }

    @Test(arguments: SegnoFixtures.symbols)
    func automaticChoicesMatch(symbol: SegnoFixtures.Symbol) throws {
        let correction = try Self.correction(symbol.correction)
        let automatic = try QRCode(text: symbol.text, correction: correction)
        #expect(automatic.version == symbol.version)
        #expect(automatic.mask == symbol.automaticMask)
        let sameVersion = try QRCode(text: symbol.text, correction: correction, version: symbol.version)
        #expect(sameVersion.mask == symbol.automaticMask)
        #expect(sameVersion == automatic)
    }

    @Test(arguments: SegnoFixtures.sweep)
    func everyVersionMatches(entry: SegnoFixtures.SweepEntry) throws {
        let correction = try Self.correction(entry.correction)
        let bytes = (0..<entry.byteCount).map { UInt8(0x21 + ($0 * 7 + entry.version) % 94) }
        let text = String(decoding: bytes, as: UTF8.self)

        let forced = try QRCode(text: text, correction: correction, version: entry.version, mask: entry.forcedMask)
        #expect(Self.hash(forced) == entry.forcedHash, "modules differ with mask \(entry.forcedMask)")

        let automatic = try QRCode(text: text, correction: correction)
        #expect(automatic.version == entry.version)
        #expect(automatic.mask == entry.automaticMask)
        #expect(Self.hash(automatic) == entry.automaticHash)
    }

    // MARK: Helpers

    static func correction(_ letter: String) throws -> QRCode.Correction {
        try #require(QRCode.Correction.allCases.first { $0.description == letter })
    }

    /// The (x, y) positions where `code` and the fixture rows disagree.
    static func differences(_ code: QRCode, _ rows: [String]) -> [String] {
        var result: [String] = []
        for (y, row) in rows.enumerated() where y < code.size {
            for (x, character) in row.enumerated() where x < code.size && code[x, y] != (character == "#") {
                result.append("(\(x), \(y))")
            }
        }
        return result
    }

    /// FNV-1a 64 over the modules row by row, 1 for dark and 0 for light, as the fixture script computes it.
    static func hash(_ code: QRCode) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for y in 0..<code.size {
            for x in 0..<code.size {
                hash ^= code[x, y] ? 1 : 0
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        return hash
    }
}
