import KeywayQR

/// A QR code as the parts of an inline SVG: a square `viewBox` of ``extent`` units, one unit per
/// module with a quiet zone of ``quietZone`` modules on every side, and one path of the dark
/// modules. The page template draws it as
/// `<svg viewBox="0 0 {extent} {extent}" role="img" aria-label="…"><path d="{path}"/></svg>`
/// on a white background, with `shape-rendering="crispEdges"`.
struct QRCodeSVG: Sendable, Equatable {
    /// The light margin around the symbol, in modules (ISO/IEC 18004 asks for 4).
    static let quietZone = 4

    /// The width and height of the `viewBox`: the symbol's size plus the quiet zone on both sides.
    let extent: Int
    /// The path data of the dark modules: one rectangle (`M x y h w v1 h-w z`) per horizontal run
    /// of dark modules, in `viewBox` units. Only digits, spaces and the letters `M h v z`.
    let path: String

    /// The drawing of `data` encoded at medium error correction, or nil when the text is too long
    /// for any QR code.
    init?(data: String) {
        guard let code = try? QRCode(text: data, correction: .medium) else { return nil }
        self.init(code: code)
    }

    /// The drawing of an encoded symbol.
    init(code: QRCode) {
        let margin = Self.quietZone
        extent = code.size + 2 * margin
        var path = ""
        for y in 0..<code.size {
            var x = 0
            while x < code.size {
                guard code[x, y] else {
                    x += 1
                    continue
                }
                let start = x
                while x < code.size, code[x, y] { x += 1 }
                let width = x - start
                if !path.isEmpty { path += " " }
                path += "M\(start + margin) \(y + margin)h\(width)v1h-\(width)z"
            }
        }
        self.path = path
    }
}
