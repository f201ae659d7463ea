import KeywayQR
import Testing

@Suite("QRCode API and terminal rendering")
struct QRCodeTests {
    @Test func picksTheSmallestVersionThatHoldsTheText() throws {
        // Version 1-M holds 14 bytes, version 2-M 26.
        #expect(try QRCode(text: String(repeating: "a", count: 14)).version == 1)
        #expect(try QRCode(text: String(repeating: "a", count: 15)).version == 2)
        #expect(try QRCode(text: String(repeating: "a", count: 15), correction: .low).version == 1)
        let code = try QRCode(text: "keyway", correction: .high)
        #expect(code.size == 21)
        #expect(code.correction == .high)
    }

    @Test func countsUTF8Bytes() throws {
        // 7 characters, 14 bytes: fills version 1-M exactly.
        let text = "ééééééé"
        #expect(try QRCode(text: text).version == 1)
        #expect(try QRCode(text: text + "é").version == 2)
    }

    @Test func finderPatternsAndDarkModule() throws {
        let code = try QRCode(text: "keyway://approve", correction: .quartile)
        for (originX, originY) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            #expect(code[originX, originY] && code[originX + 6, originY + 6])
            #expect(!code[originX + 1, originY + 1])
            #expect(code[originX + 3, originY + 3])
        }
        #expect(code[8, code.size - 8])
    }

    @Test func errors() {
        #expect(throws: QRCodeError.textTooLong(byteCount: 2332, capacity: 2331, version: 40)) {
            try QRCode(text: String(repeating: "x", count: 2332), correction: .medium)
        }
        #expect(throws: QRCodeError.textTooLong(byteCount: 15, capacity: 14, version: 1)) {
            try QRCode(text: String(repeating: "x", count: 15), correction: .medium, version: 1)
        }
        #expect(throws: QRCodeError.invalidVersion(41)) { try QRCode(text: "x", version: 41) }
        #expect(throws: QRCodeError.invalidVersion(0)) { try QRCode(text: "x", version: 0) }
        #expect(throws: QRCodeError.invalidMask(8)) { try QRCode(text: "x", version: 1, mask: 8) }
        #expect(QRCodeError.invalidMask(8).description.contains("0 to 7"))
        #expect(QRCodeError.textTooLong(byteCount: 15, capacity: 14, version: 1).description.contains("15 bytes"))
    }

    @Test func largestTextFitsVersion40() throws {
        let code = try QRCode(text: String(repeating: "x", count: 2953), correction: .low)
        #expect(code.version == 40)
        #expect(code.size == 177)
    }

    @Test func terminalTextDrawsLightModulesAsBlocks() throws {
        let code = try QRCode(text: "Keyway", correction: .medium, version: 1, mask: 3)
        let lines = try Self.render(code, quietZone: 2)
        // 21 modules + 2 × 2 quiet zone = 25 rows and columns; 13 lines, the last with an empty lower half.
        #expect(lines.count == 13)
        #expect(lines.allSatisfy { $0.count == 25 })
        #expect(lines[0] == String(repeating: "█", count: 25))
        #expect(lines[12] == String(repeating: "▀", count: 25))
        // The second line holds symbol rows 0 and 1: quiet zone, then the top-left finder's dark corner
        // (a space) and its outer ring over the light inner ring (a lower half block).
        #expect(Array(lines[1]).prefix(4) == ["█", "█", " ", "▄"])

        // Reading the half blocks back gives the symbol, with light modules as blocks.
        for y in 0..<code.size {
            for x in 0..<code.size {
                let row = y + 2
                let character = Array(lines[row / 2])[x + 2]
                let light =
                    row % 2 == 0 ? (character == "█" || character == "▀") : (character == "█" || character == "▄")
                #expect(light == !code[x, y], "module (\(x), \(y))")
            }
        }
    }

    @Test func terminalTextWithoutQuietZone() throws {
        let code = try QRCode(text: "Keyway", version: 1, mask: 0)
        let lines = try Self.render(code, quietZone: 0)
        #expect(lines.count == 11)
        #expect(lines.allSatisfy { $0.count == 21 })
        // The top row of the finders is dark: no block in an upper half there.
        #expect(Array(lines[0]).prefix(7).allSatisfy { $0 == " " || $0 == "▄" })
        #expect(try Self.render(code, quietZone: -3) == lines)
    }

    static func render(_ code: QRCode, quietZone: Int) throws -> [String] {
        let text = code.terminalText(quietZone: quietZone)
        #expect(!text.hasSuffix("\n"))
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
