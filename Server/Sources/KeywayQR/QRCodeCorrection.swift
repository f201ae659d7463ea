extension QRCode {
    /// The error-correction level: how much of the symbol can be damaged and still be read.
    ///
    /// A higher level recovers more damage but holds less data, so the same text may need a larger symbol.
    public enum Correction: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
        /// Level L: recovers about 7% of the codewords.
        case low
        /// Level M: recovers about 15% of the codewords.
        case medium
        /// Level Q: recovers about 25% of the codewords.
        case quartile
        /// Level H: recovers about 30% of the codewords.
        case high

        /// The level's letter as ISO/IEC 18004 names it: "L", "M", "Q" or "H".
        public var description: String {
            switch self {
            case .low: "L"
            case .medium: "M"
            case .quartile: "Q"
            case .high: "H"
            }
        }

        /// The two bits the format information carries for this level (L = 01, M = 00, Q = 11, H = 10).
        var formatBits: Int {
            switch self {
            case .low: 0b01
            case .medium: 0b00
            case .quartile: 0b11
            case .high: 0b10
            }
        }
    }
}
