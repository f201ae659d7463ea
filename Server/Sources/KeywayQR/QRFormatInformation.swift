/// The BCH-protected format and version information words (ISO/IEC 18004:2015 §7.9 and §7.10).
enum QRFormatInformation {
    /// The 15-bit format word for `correction` and `mask`: the level's two bits and the mask's three,
    /// a BCH(15,5) remainder under the generator x¹⁰ + x⁸ + x⁵ + x⁴ + x² + x + 1 (0x537), all XORed
    /// with 101010000010010 so that the word is never all light.
    static func formatBits(correction: QRCode.Correction, mask: Int) -> Int {
        let data = correction.formatBits << 3 | mask
        return (data << 10 | bchRemainder(data << 10, generator: 0x537, degree: 10)) ^ 0x5412
    }

    /// The 18-bit version word for versions 7 and up: the six version bits and a BCH(18,6) remainder
    /// under the generator x¹² + x¹¹ + x¹⁰ + x⁹ + x⁸ + x⁵ + x² + 1 (0x1F25).
    static func versionBits(version: Int) -> Int {
        version << 12 | bchRemainder(version << 12, generator: 0x1F25, degree: 12)
    }

    /// The remainder of `value` divided by `generator` (both polynomials over GF(2)), of fewer than `degree` + 1 bits.
    private static func bchRemainder(_ value: Int, generator: Int, degree: Int) -> Int {
        var remainder = value
        var bit = remainder.bitWidth - remainder.leadingZeroBitCount - 1
        while bit >= degree {
            if remainder >> bit & 1 == 1 { remainder ^= generator << (bit - degree) }
            bit -= 1
        }
        return remainder
    }
}
