/// A Reed–Solomon encoder over GF(256) that computes a block's error-correction codewords.
struct ReedSolomonEncoder: Sendable {
    /// The generator polynomial (x − α⁰)(x − α¹)…(x − α^(degree−1)), highest power first,
    /// without its leading coefficient (which is 1).
    let generator: [UInt8]

    /// An encoder that appends `degree` error-correction codewords to a block.
    init(degree: Int) {
        precondition(degree >= 1 && degree <= 254, "Reed–Solomon degree out of range")
        // Start from the polynomial 1 and multiply by (x − αⁱ) in turn; coefficients highest power first.
        var coefficients: [UInt8] = [1]
        for i in 0..<degree {
            let root = GaloisField.power(i)
            var product = [UInt8](repeating: 0, count: coefficients.count + 1)
            for (index, coefficient) in coefficients.enumerated() {
                product[index] ^= coefficient
                product[index + 1] ^= GaloisField.multiply(coefficient, root)
            }
            coefficients = product
        }
        generator = Array(coefficients.dropFirst())
    }

    /// The error-correction codewords for `data`: the remainder of data(x)·x^degree divided by the generator.
    func errorCorrection(for data: [UInt8]) -> [UInt8] {
        var remainder = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            if factor == 0 { continue }
            for index in remainder.indices {
                remainder[index] ^= GaloisField.multiply(generator[index], factor)
            }
        }
        return remainder
    }
}
