import Testing

@testable import KeywayQR

@Suite("QR data codewords, format and version information")
struct QREncodingTests {
    @Test func byteModeDataCodewords() {
        // 0100 | 00000110 | "Keyway" | 0000, then the pad codewords.
        let data = QRDataCodewords.encode(Array("Keyway".utf8), version: QRVersion(1), correction: .medium)
        #expect(
            data == [0x40, 0x64, 0xB6, 0x57, 0x97, 0x76, 0x17, 0x90, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11])
    }

    @Test func characterCountGrowsToSixteenBitsFromVersion10() {
        // 0100 | 0000000000000001 | 11111111 | 0000
        let data = QRDataCodewords.encode([0xFF], version: QRVersion(10), correction: .high)
        #expect(Array(data.prefix(5)) == [0x40, 0x00, 0x1F, 0xF0, 0xEC])
        #expect(data.count == QRVersion(10).dataCodewords(.high))
    }

    @Test func interleavingTakesDataThenErrorCorrectionColumnByColumn() {
        // Version 5-Q: two blocks of 15 data codewords, then two of 16, each with 18 error-correction codewords.
        let version = QRVersion(5)
        let data = (0..<62).map { UInt8($0) }
        let final = QRBlockInterleaving.finalCodewords(data: data, version: version, correction: .quartile)
        #expect(final.count == version.totalCodewords)
        #expect(Array(final.prefix(8)) == [0, 15, 30, 46, 1, 16, 31, 47])
        #expect(Array(final[56..<62]) == [14, 29, 44, 60, 45, 61])
        let encoder = ReedSolomonEncoder(degree: 18)
        let firstBlockErrorCorrection = encoder.errorCorrection(for: Array(data[0..<15]))
        #expect(final[62] == firstBlockErrorCorrection[0])
        #expect(final[66] == firstBlockErrorCorrection[1])
    }

    @Test func isoFormatExampleLevelMMask5() {
        // ISO/IEC 18004:2015 §7.9.1: M (00) with mask 101 gives 100000011001110.
        #expect(QRFormatInformation.formatBits(correction: .medium, mask: 5) == 0b100000011001110)
    }

    @Test(arguments: QRCode.Correction.allCases)
    func formatWordsMatchSegno(correction: QRCode.Correction) throws {
        let expected = try #require(SegnoFixtures.formatWords[correction.description])
        #expect((0..<8).map { QRFormatInformation.formatBits(correction: correction, mask: $0) } == expected)
    }

    @Test func versionWordsMatchSegno() {
        #expect(QRFormatInformation.versionBits(version: 7) == 0b000111_110010010100)
        #expect((7...40).map { QRFormatInformation.versionBits(version: $0) } == SegnoFixtures.versionWords)
    }

    @Test(arguments: QRCode.Correction.allCases)
    func byteCapacitiesMatchSegno(correction: QRCode.Correction) throws {
        let expected = try #require(SegnoFixtures.byteCapacities[correction.description])
        #expect((1...40).map { QRVersion($0).byteCapacity(correction) } == expected)
    }

    @Test func versionSizesAndVersionInformation() {
        #expect(QRVersion(1).size == 21)
        #expect(QRVersion(40).size == 177)
        #expect(!QRVersion(6).hasVersionInformation)
        #expect(QRVersion(7).hasVersionInformation)
        #expect(QRVersion(7).alignmentCenters == [6, 22, 38])
    }

    @Test func penaltyRules() {
        // N1: a run of 5 scores 3, each further module 1 more.
        #expect(QRPenalty.runPenalty([true, true, true, true, true, false]) == 3)
        #expect(QRPenalty.runPenalty([false, true, true, true, true, true, true, true]) == 5)
        #expect(QRPenalty.runPenalty([true, true, true, true, false, false, false, false]) == 0)
        // N3: 1011101 with four light modules on one side (the edge counts as light).
        let pattern: [Bool] = [true, false, true, true, true, false, true]
        let light = [Bool](repeating: false, count: 4)
        #expect(QRPenalty.finderLikePenalty(light + pattern + [true]) == 40)
        #expect(QRPenalty.finderLikePenalty([true] + pattern + light) == 40)
        #expect(QRPenalty.finderLikePenalty(pattern) == 40)
        #expect(QRPenalty.finderLikePenalty([true, true, true, true] + pattern + [true, true, true, true]) == 0)
        #expect(QRPenalty.finderLikePenalty([true, false, false, false] + pattern + [false, false, false, true]) == 0)
        // N4: 10 per full 5% away from half dark.
        #expect(QRPenalty.balancePenalty([true, false]) == 0)
        #expect(QRPenalty.balancePenalty([true, true, true, false]) == 50)
        #expect(QRPenalty.balancePenalty([Bool](repeating: true, count: 9) + [false]) == 80)
    }
}
