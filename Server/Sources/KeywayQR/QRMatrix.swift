/// A square grid of modules under construction, with a note of which modules belong to function patterns
/// (finders, separators, timing, alignment, format and version information) and so carry no data.
struct QRMatrix: Sendable, Equatable {
    /// Modules per side.
    let size: Int
    /// Whether each module is dark, row by row.
    private(set) var modules: [Bool]
    /// Whether each module belongs to a function pattern or a reserved area, row by row.
    private(set) var isFunction: [Bool]

    /// A matrix for `version` with its function patterns drawn and the format and version areas reserved.
    ///
    /// The reserved areas, and the dark module beside the lower-left finder, stay light until
    /// `drawFormatInformation(correction:mask:)` and `drawVersionInformation(_:)` fill them in, so that
    /// a mask is scored before they are written, as ISO/IEC 18004:2015 §7.8 orders the steps.
    init(version: QRVersion) {
        size = version.size
        modules = [Bool](repeating: false, count: size * size)
        isFunction = [Bool](repeating: false, count: size * size)
        drawTimingPatterns()
        drawFinderPattern(centerX: 3, centerY: 3)
        drawFinderPattern(centerX: size - 4, centerY: 3)
        drawFinderPattern(centerX: 3, centerY: size - 4)
        drawAlignmentPatterns(centers: version.alignmentCenters)
        reserveFormatAreas()
        if version.hasVersionInformation { reserveVersionAreas() }
    }

    /// Whether the module at column `x`, row `y` is dark.
    subscript(x: Int, y: Int) -> Bool {
        modules[y * size + x]
    }

    // MARK: Function patterns (ISO/IEC 18004:2015 §6.3)

    private mutating func setFunction(x: Int, y: Int, dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    /// The timing patterns along row 6 and column 6; the finders drawn afterwards cover their ends.
    private mutating func drawTimingPatterns() {
        for i in 0..<size {
            setFunction(x: 6, y: i, dark: i % 2 == 0)
            setFunction(x: i, y: 6, dark: i % 2 == 0)
        }
    }

    /// A 7×7 finder pattern centred on (`centerX`, `centerY`) with its light separator, clipped to the symbol.
    private mutating func drawFinderPattern(centerX: Int, centerY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centerX + dx
                let y = centerY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let distance = max(abs(dx), abs(dy))
                setFunction(x: x, y: y, dark: distance != 2 && distance != 4)
            }
        }
    }

    /// The 5×5 alignment patterns at every pair of centres except the three that overlap the finders.
    private mutating func drawAlignmentPatterns(centers: [Int]) {
        guard let first = centers.first, let last = centers.last else { return }
        for cy in centers {
            for cx in centers {
                if (cx == first && cy == first) || (cx == first && cy == last) || (cx == last && cy == first) {
                    continue
                }
                for dy in -2...2 {
                    for dx in -2...2 {
                        setFunction(x: cx + dx, y: cy + dy, dark: max(abs(dx), abs(dy)) != 1)
                    }
                }
            }
        }
    }

    /// Marks the two copies of the format information and the dark module as function modules, light for now.
    private mutating func reserveFormatAreas() {
        for position in Self.formatPositions(size: size) {
            setFunction(x: position.first.x, y: position.first.y, dark: false)
            setFunction(x: position.second.x, y: position.second.y, dark: false)
        }
        setFunction(x: 8, y: size - 8, dark: false)
    }

    /// Marks the two 6×3 version information blocks as function modules, light for now.
    private mutating func reserveVersionAreas() {
        for position in Self.versionPositions(size: size) {
            setFunction(x: position.first.x, y: position.first.y, dark: false)
            setFunction(x: position.second.x, y: position.second.y, dark: false)
        }
    }

    // MARK: Format and version information (ISO/IEC 18004:2015 §7.9, §7.10)

    /// Where bit i (0 = least significant) of the 15-bit format word goes, in both copies: around the
    /// upper-left finder, and split between the lower-left and upper-right finders.
    static func formatPositions(size: Int) -> [(first: (x: Int, y: Int), second: (x: Int, y: Int))] {
        (0..<15).map { i in
            let first: (x: Int, y: Int) =
                switch i {
                case 0..<6: (8, i)
                case 6: (8, 7)
                case 7: (8, 8)
                case 8: (7, 8)
                default: (14 - i, 8)
                }
            let second: (x: Int, y: Int) = i < 8 ? (size - 1 - i, 8) : (8, size - 15 + i)
            return (first, second)
        }
    }

    /// Where bit i (0 = least significant) of the 18-bit version word goes, in both copies: above the
    /// lower-left finder and left of the upper-right one.
    static func versionPositions(size: Int) -> [(first: (x: Int, y: Int), second: (x: Int, y: Int))] {
        (0..<18).map { i in
            let across = size - 11 + i % 3
            let along = i / 3
            return ((across, along), (along, across))
        }
    }

    /// Writes the format information for `correction` and `mask`, and the dark module.
    mutating func drawFormatInformation(correction: QRCode.Correction, mask: QRMask) {
        let bits = QRFormatInformation.formatBits(correction: correction, mask: mask.number)
        for (i, position) in Self.formatPositions(size: size).enumerated() {
            let dark = bits >> i & 1 == 1
            setFunction(x: position.first.x, y: position.first.y, dark: dark)
            setFunction(x: position.second.x, y: position.second.y, dark: dark)
        }
        setFunction(x: 8, y: size - 8, dark: true)
    }

    /// Writes the version information (versions 7 and up; a no-op below).
    mutating func drawVersionInformation(_ version: QRVersion) {
        guard version.hasVersionInformation else { return }
        let bits = QRFormatInformation.versionBits(version: version.number)
        for (i, position) in Self.versionPositions(size: size).enumerated() {
            let dark = bits >> i & 1 == 1
            setFunction(x: position.first.x, y: position.first.y, dark: dark)
            setFunction(x: position.second.x, y: position.second.y, dark: dark)
        }
    }

    // MARK: Data (ISO/IEC 18004:2015 §7.7)

    /// Places `codewords` most significant bit first in the zigzag order: two-module-wide columns from
    /// the right edge, alternately upwards and downwards, skipping the vertical timing column and every
    /// function module. Modules left over (the remainder bits) stay light.
    mutating func placeCodewords(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !isFunction[y * size + x] && bitIndex < bitCount {
                    modules[y * size + x] = codewords[bitIndex / 8] >> (7 - bitIndex % 8) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// Inverts every data module where `mask` says so; function modules are left as they are.
    mutating func apply(_ mask: QRMask) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] && mask.inverts(x: x, y: y) {
                modules[y * size + x].toggle()
            }
        }
    }
}
