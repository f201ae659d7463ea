import KeywayQR
import Testing

@testable import KeywayServer

/// The QR code drawn as SVG path data, against the encoder's matrix.
@Suite struct QRCodeSVGTests {
    /// The rectangles of a path: (x, y, width), each one module high.
    func runs(_ path: String) throws -> [(x: Int, y: Int, width: Int)] {
        try path.split(separator: " M").map { part in
            let text = part.hasPrefix("M") ? part.dropFirst() : part
            // "x y" "h" "w" "v1h-w" "z"
            let numbers = text.split(whereSeparator: { !$0.isNumber }).map { Int($0)! }
            try #require(numbers.count == 5 && numbers[3] == 1 && numbers[2] == numbers[4], "\(part)")
            #expect(text.hasSuffix("z"))
            return (numbers[0], numbers[1], numbers[2])
        }
    }

    @Test(arguments: ["x", "otpauth://totp/Acme:ada@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Acme", String(repeating: "keyway ", count: 60)])
    func matchesTheMatrix(text: String) throws {
        let code = try QRCode(text: text, correction: .medium)
        let svg = try #require(QRCodeSVG(data: text))
        #expect(svg == QRCodeSVG(code: code))
        #expect(svg.extent == code.size + 8)
        #expect(svg.path.allSatisfy { $0.isNumber || " Mhvz-".contains($0) })
        var dark = 0
        for y in 0..<code.size { for x in 0..<code.size where code[x, y] { dark += 1 } }
        let runs = try runs(svg.path)
        #expect(runs.reduce(0) { $0 + $1.width } == dark)
        // Every run covers dark modules only, inside the symbol, offset by the quiet zone.
        for run in runs {
            #expect(run.y >= 4 && run.y < code.size + 4 && run.x >= 4 && run.x + run.width <= code.size + 4)
            for x in run.x..<(run.x + run.width) { #expect(code[x - 4, run.y - 4]) }
        }
        // The top-left finder pattern: a run of seven dark modules at the corner of the quiet zone.
        #expect(svg.path.hasPrefix("M4 4h7v1h-7z"))
    }

    @Test func tooLongIsNil() {
        #expect(QRCodeSVG(data: String(repeating: "x", count: 4000)) == nil)
    }

    @Test func renderedWithItsViewBox() throws {
        let svg = try #require(QRCodeSVG(data: "hello"))
        let html = HostedPageRenderer().render(
            HostedPage(title: "QR", theme: HostedTheme(name: "Acme"), displays: [.qrCode(label: "Scan me", data: "hello")]),
            strings: .english)
        let tag = try #require(HTMLCheck(html).tags("svg").first)
        #expect(tag.attributes["viewbox"] == "0 0 \(svg.extent) \(svg.extent)")
        #expect(html.contains("d=\"\(svg.path)\""))
        #expect(HTMLCheck(html).tags("rect").first?.attributes["fill"] == "#ffffff")
    }
}
