/// Arithmetic in GF(256), the field QR codes compute their Reed–Solomon codewords in: bytes are
/// polynomials over GF(2) reduced modulo x⁸ + x⁴ + x³ + x² + 1 (0x11D), with α = 2 as generator.
enum GaloisField {
    /// The reducing polynomial x⁸ + x⁴ + x³ + x² + 1.
    static let primitivePolynomial = 0x11D

    /// αⁱ for i in 0..<510 (the table is doubled so a sum of two logarithms needs no reduction).
    static let exponents: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 510)
        var value = 1
        for power in 0..<255 {
            table[power] = UInt8(value)
            table[power + 255] = UInt8(value)
            value <<= 1
            if value & 0x100 != 0 { value ^= primitivePolynomial }
        }
        return table
    }()

    /// logₐ(v) for v in 1...255; entry 0 is unused.
    static let logarithms: [Int] = {
        var table = [Int](repeating: 0, count: 256)
        for power in 0..<255 { table[Int(exponents[power])] = power }
        return table
    }()

    /// αⁿ for any n ≥ 0.
    static func power(_ exponent: Int) -> UInt8 {
        exponents[exponent % 255]
    }

    /// The product of two field elements.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return exponents[logarithms[Int(a)] + logarithms[Int(b)]]
    }
}
