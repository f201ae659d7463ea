/// The data codewords of a byte-mode segment (ISO/IEC 18004:2015 §7.4): mode indicator, character count,
/// the bytes, terminator, bit padding to a whole codeword, then the pad codewords 0xEC and 0x11 in turn.
enum QRDataCodewords {
    /// The byte-mode indicator, 0100.
    static let byteModeIndicator = 0b0100

    /// The data codewords that carry `bytes` in a symbol of `version` at `correction`; `bytes`
    /// must fit, as `QRVersion.byteCapacity(_:)` tells.
    static func encode(_ bytes: [UInt8], version: QRVersion, correction: QRCode.Correction) -> [UInt8] {
        let capacity = version.dataCodewords(correction)
        precondition(bytes.count <= version.byteCapacity(correction), "data does not fit the version")
        var bits = BitBuffer()
        bits.append(byteModeIndicator, count: 4)
        bits.append(bytes.count, count: version.byteModeCountBits)
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var codewords = bits.bytes
        var pad: UInt8 = 0xEC
        while codewords.count < capacity {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }
}

/// A growing sequence of bits, most significant first, read out as bytes.
struct BitBuffer: Sendable {
    /// The bits appended so far.
    private(set) var bits: [Bool] = []

    /// How many bits the buffer holds.
    var count: Int { bits.count }

    /// Appends the low `count` bits of `value`, most significant first.
    mutating func append(_ value: Int, count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            bits.append(value >> shift & 1 == 1)
        }
    }

    /// The bits packed eight to a byte; a last partial byte is padded with zeros.
    var bytes: [UInt8] {
        var result = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (index, bit) in bits.enumerated() where bit {
            result[index / 8] |= 0x80 >> (index % 8)
        }
        return result
    }
}
