import Testing

@testable import KeywayQR

@Suite("GF(256) and Reed–Solomon")
struct ReedSolomonTests {
    @Test func fieldTablesFollowThePrimitivePolynomial() {
        #expect(GaloisField.power(0) == 1)
        #expect(GaloisField.power(7) == 0x80)
        #expect(GaloisField.power(8) == 0x1D)  // x⁸ = x⁴ + x³ + x² + 1
        #expect(GaloisField.power(255) == 1)
        #expect(Set((0..<255).map(GaloisField.power)).count == 255)
        for value in 1...255 {
            #expect(GaloisField.power(GaloisField.logarithms[value]) == UInt8(value))
        }
    }

    @Test func multiplicationHasInversesAndDistributes() {
        #expect(GaloisField.multiply(0, 0x53) == 0)
        #expect(GaloisField.multiply(0x53, 1) == 0x53)
        for value in 1...255 {
            let inverse = GaloisField.power(255 - GaloisField.logarithms[value])
            #expect(GaloisField.multiply(UInt8(value), inverse) == 1)
        }
        let (a, b, c): (UInt8, UInt8, UInt8) = (0x57, 0x83, 0xC4)
        let distributed = GaloisField.multiply(a, b) ^ GaloisField.multiply(a, c)
        #expect(GaloisField.multiply(a, b ^ c) == distributed)
    }

    @Test func generatorOfDegreeTenIsTheStandardOne() {
        // x¹⁰ + α²⁵¹x⁹ + α⁶⁷x⁸ + α⁴⁶x⁷ + α⁶¹x⁶ + α¹¹⁸x⁵ + α⁷⁰x⁴ + α⁶⁴x³ + α⁹⁴x² + α³²x + α⁴⁵
        let exponents = [251, 67, 46, 61, 118, 70, 64, 94, 32, 45]
        #expect(ReedSolomonEncoder(degree: 10).generator == exponents.map(GaloisField.power))
    }

    @Test func isoExampleNumeric01234567Version1M() {
        // ISO/IEC 18004:2015 Annex I: "01234567" in numeric mode, version 1-M.
        let data: [UInt8] = [
            0x10, 0x20, 0x0C, 0x56, 0x61, 0x80, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        let expected: [UInt8] = [0xA5, 0x24, 0xD4, 0xC1, 0xED, 0x36, 0xC7, 0x87, 0x2C, 0x55]
        #expect(ReedSolomonEncoder(degree: 10).errorCorrection(for: data) == expected)
    }

    @Test func helloWorldAlphanumericVersion1M() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        let expected: [UInt8] = [196, 35, 39, 119, 235, 215, 231, 226, 93, 23]
        #expect(ReedSolomonEncoder(degree: 10).errorCorrection(for: data) == expected)
    }

    @Test func codewordWithItsErrorCorrectionIsAMultipleOfTheGenerator() {
        let data = (0..<40).map { UInt8(($0 * 37 + 11) % 256) }
        let encoder = ReedSolomonEncoder(degree: 22)
        let codeword = data + encoder.errorCorrection(for: data)
        // Every generator root αⁱ is a root of the whole codeword polynomial.
        for i in 0..<22 {
            let root = GaloisField.power(i)
            let value = codeword.reduce(UInt8(0)) { GaloisField.multiply($0, root) ^ $1 }
            #expect(value == 0, "α^\(i) is not a root")
        }
    }
}
