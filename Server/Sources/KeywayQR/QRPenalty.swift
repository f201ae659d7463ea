/// The penalty score of a masked symbol (ISO/IEC 18004:2015 §7.8.3.1, Table 11): the lower, the easier
/// it is to read.
enum QRPenalty {
    /// N1 + N2 + N3 + N4 for `matrix`.
    static func score(_ matrix: QRMatrix) -> Int {
        let size = matrix.size
        let modules = matrix.modules
        var total = 0
        var row = [Bool](repeating: false, count: size)
        var column = [Bool](repeating: false, count: size)
        for line in 0..<size {
            for i in 0..<size {
                row[i] = modules[line * size + i]
                column[i] = modules[i * size + line]
            }
            total += runPenalty(row) + runPenalty(column)
            total += finderLikePenalty(row) + finderLikePenalty(column)
        }
        total += blockPenalty(modules, size: size)
        total += balancePenalty(modules)
        return total
    }

    /// N1: each run of five or more modules of one colour in a line scores 3, plus 1 for each module past five.
    static func runPenalty(_ line: [Bool]) -> Int {
        var penalty = 0
        var runLength = 0
        var previous: Bool?
        for module in line {
            if module == previous {
                runLength += 1
            } else {
                if runLength >= 5 { penalty += runLength - 2 }
                runLength = 1
                previous = module
            }
        }
        if runLength >= 5 { penalty += runLength - 2 }
        return penalty
    }

    /// N2: each 2×2 block of one colour scores 3 (overlapping blocks each count).
    static func blockPenalty(_ modules: [Bool], size: Int) -> Int {
        var penalty = 0
        for y in 1..<size {
            for x in 1..<size {
                let colour = modules[y * size + x]
                if modules[y * size + x - 1] == colour, modules[(y - 1) * size + x] == colour,
                    modules[(y - 1) * size + x - 1] == colour
                {
                    penalty += 3
                }
            }
        }
        return penalty
    }

    /// The dark–light–dark–dark–dark–light–dark sequence of the finder patterns' 1:1:3:1:1 ratio.
    private static let finderLike: [Bool] = [true, false, true, true, true, false, true]

    /// N3: each 1:1:3:1:1 dark–light–dark–light–dark sequence in a line with four light modules before or
    /// after it scores 40. Modules beyond the edge count as light (they are the quiet zone). After a
    /// sequence that scores, the search resumes past its end, so overlapping sequences score once.
    static func finderLikePenalty(_ line: [Bool]) -> Int {
        let count = line.count
        var penalty = 0
        var start = 0
        while start + finderLike.count <= count {
            guard line[start] else {
                start += 1
                continue
            }
            guard (0..<finderLike.count).allSatisfy({ line[start + $0] == finderLike[$0] }) else {
                start += 1
                continue
            }
            let end = start + finderLike.count
            let lightBefore = (max(0, start - 4)..<start).allSatisfy { !line[$0] }
            let lightAfter = (end..<min(count, end + 4)).allSatisfy { !line[$0] }
            if lightBefore || lightAfter {
                penalty += 40
                start = end
            } else {
                start += 4
            }
        }
        return penalty
    }

    /// N4: 10 for every full 5% by which the proportion of dark modules departs from 50%.
    static func balancePenalty(_ modules: [Bool]) -> Int {
        let total = modules.count
        let dark = modules.reduce(0) { $0 + ($1 ? 1 : 0) }
        return 10 * (abs(20 * dark - 10 * total) / total)
    }
}
