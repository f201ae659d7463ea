extension QRCode {
    /// The symbol drawn with Unicode half blocks for a terminal, two module rows to a line of text.
    ///
    /// Light modules and the quiet zone are drawn as blocks (`█`, `▀`, `▄`) and dark modules as spaces,
    /// so the terminal's foreground colour stands for light and its background for dark. In the usual
    /// light-on-dark terminal that shows dark modules on a light ground, as scanners expect; in a
    /// dark-on-light terminal the code would appear inverted, which many scanners do not read. The lines
    /// are joined by newlines with none after the last. When the height is odd, the lower half of the last
    /// line lies outside the quiet zone and is left as background.
    ///
    /// - Parameter quietZone: The light margin around the symbol, in modules (ISO/IEC 18004 asks for 4;
    ///   2 usually scans on a screen, where the dark background around it helps). Negative values count as 0.
    public func terminalText(quietZone: Int = 2) -> String {
        let margin = max(0, quietZone)
        let extent = size + 2 * margin
        // Whether the module at (x, y) of the symbol with its quiet zone is light; outside that, false.
        func isLight(_ x: Int, _ y: Int) -> Bool {
            guard y < extent else { return false }
            let symbolX = x - margin
            let symbolY = y - margin
            guard (0..<size).contains(symbolX), (0..<size).contains(symbolY) else { return true }
            return !self[symbolX, symbolY]
        }
        var lines: [String] = []
        for top in stride(from: 0, to: extent, by: 2) {
            var line = ""
            line.reserveCapacity(extent)
            for x in 0..<extent {
                switch (isLight(x, top), isLight(x, top + 1)) {
                case (true, true): line.append("█")
                case (true, false): line.append("▀")
                case (false, true): line.append("▄")
                case (false, false): line.append(" ")
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
