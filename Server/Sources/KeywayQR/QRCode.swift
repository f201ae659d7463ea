/// A QR code symbol (ISO/IEC 18004) that carries a text as UTF-8 bytes in byte mode.
///
/// The symbol is a square of `size` × `size` modules; `self[x, y]` tells whether the module at column `x`,
/// row `y` is dark. The quiet zone around the symbol is not part of it.
///
/// ```swift
/// let code = try QRCode(text: "keyway://approve?request=r_123", correction: .medium)
/// print(code.terminalText())
/// ```
public struct QRCode: Sendable, Equatable {
    /// The number of modules along each side: 21 for version 1, four more for each version after it.
    public let size: Int
    /// The version (symbol size class), 1…40.
    public let version: Int
    /// The data mask pattern applied, 0…7.
    public let mask: Int
    /// The error-correction level.
    public let correction: Correction
    /// Whether each module is dark, row by row.
    private let modules: [Bool]

    /// Encodes `text` in the smallest version that holds it at `correction`, with the mask that scores
    /// the lowest penalty under the rules of ISO/IEC 18004:2015 §7.8.3.
    ///
    /// - Throws: `QRCodeError.textTooLong` when even a version-40 symbol cannot hold the text's UTF-8 bytes.
    public init(text: String, correction: Correction = .medium) throws(QRCodeError) {
        let bytes = Array(text.utf8)
        let maximum = QRVersion(QRVersion.maximum)
        guard let version = (QRVersion.minimum...QRVersion.maximum).lazy.map(QRVersion.init)
            .first(where: { bytes.count <= $0.byteCapacity(correction) })
        else {
            throw .textTooLong(
                byteCount: bytes.count, capacity: maximum.byteCapacity(correction), version: maximum.number)
        }
        self.init(bytes: bytes, correction: correction, version: version, mask: nil)
    }

    /// Encodes `text` in the given `version`, with the given `mask`, or with the best one when `mask` is nil.
    ///
    /// Meant for comparing against other encoders and for tests; `init(text:correction:)` picks the version.
    ///
    /// - Throws: `QRCodeError.invalidVersion` unless `version` is in 1…40, `QRCodeError.invalidMask` unless
    ///   `mask` is nil or in 0…7, and `QRCodeError.textTooLong` when the version cannot hold the text.
    public init(text: String, correction: Correction = .medium, version: Int, mask: Int? = nil) throws(QRCodeError) {
        guard (QRVersion.minimum...QRVersion.maximum).contains(version) else { throw .invalidVersion(version) }
        if let mask, !(0..<8).contains(mask) { throw .invalidMask(mask) }
        let bytes = Array(text.utf8)
        let qrVersion = QRVersion(version)
        guard bytes.count <= qrVersion.byteCapacity(correction) else {
            throw .textTooLong(byteCount: bytes.count, capacity: qrVersion.byteCapacity(correction), version: version)
        }
        self.init(bytes: bytes, correction: correction, version: qrVersion, mask: mask.map(QRMask.init(number:)))
    }

    /// Builds the symbol for `bytes`, which fit `version` at `correction`.
    private init(bytes: [UInt8], correction: Correction, version: QRVersion, mask: QRMask?) {
        let data = QRDataCodewords.encode(bytes, version: version, correction: correction)
        let codewords = QRBlockInterleaving.finalCodewords(data: data, version: version, correction: correction)
        var matrix = QRMatrix(version: version)
        matrix.placeCodewords(codewords)
        let chosen = mask ?? QRMask.best(for: matrix)
        matrix.apply(chosen)
        matrix.drawFormatInformation(correction: correction, mask: chosen)
        matrix.drawVersionInformation(version)
        self.size = matrix.size
        self.version = version.number
        self.mask = chosen.number
        self.correction = correction
        self.modules = matrix.modules
    }

    /// Whether the module at column `x`, row `y` (both 0..<`size`, from the top left) is dark.
    public subscript(x: Int, y: Int) -> Bool {
        precondition((0..<size).contains(x) && (0..<size).contains(y), "module outside the symbol")
        return modules[y * size + x]
    }
}
