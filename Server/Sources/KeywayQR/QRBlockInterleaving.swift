/// Splitting data codewords into error-correction blocks and interleaving them into the final
/// codeword sequence (ISO/IEC 18004:2015 §7.5 and §7.6).
enum QRBlockInterleaving {
    /// The final codeword sequence for `data` in `version` at `correction`: the data codewords split into
    /// blocks (the shorter blocks first, the longer ones holding one more data codeword), each block's
    /// Reed–Solomon codewords computed, then the data codewords read column by column across the
    /// blocks, followed by the error-correction codewords in the same way.
    static func finalCodewords(data: [UInt8], version: QRVersion, correction: QRCode.Correction) -> [UInt8] {
        precondition(data.count == version.dataCodewords(correction), "wrong number of data codewords")
        let blockCount = version.blockCount(correction)
        let errorCount = version.errorCorrectionPerBlock(correction)
        let shortDataLength = data.count / blockCount
        let longBlockCount = data.count % blockCount
        let encoder = ReedSolomonEncoder(degree: errorCount)

        var dataBlocks: [[UInt8]] = []
        var errorBlocks: [[UInt8]] = []
        var start = 0
        for index in 0..<blockCount {
            let length = shortDataLength + (index >= blockCount - longBlockCount ? 1 : 0)
            let block = Array(data[start..<start + length])
            start += length
            dataBlocks.append(block)
            errorBlocks.append(encoder.errorCorrection(for: block))
        }

        var result: [UInt8] = []
        result.reserveCapacity(version.totalCodewords)
        for column in 0...shortDataLength {
            for block in dataBlocks where column < block.count { result.append(block[column]) }
        }
        for column in 0..<errorCount {
            for block in errorBlocks { result.append(block[column]) }
        }
        return result
    }
}
