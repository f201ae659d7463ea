/// One of the eight data mask patterns (ISO/IEC 18004:2015 §7.8.2, Table 10), and the choice among them.
struct QRMask: Sendable, Equatable {
    /// The mask pattern reference, 0…7.
    let number: Int

    /// All eight masks, in order.
    static let all = (0..<8).map(QRMask.init(number:))

    /// Whether the mask inverts the data module at column `x`, row `y`.
    func inverts(x: Int, y: Int) -> Bool {
        switch number {
        case 0: (y + x) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (y + x) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: (y * x) % 2 + (y * x) % 3 == 0
        case 6: ((y * x) % 2 + (y * x) % 3) % 2 == 0
        default: ((y + x) % 2 + (y * x) % 3) % 2 == 0
        }
    }

    /// The mask with the lowest penalty score for `matrix` (whose data is placed but not yet masked, and
    /// whose format and version areas are still light); the lowest-numbered one wins a tie.
    static func best(for matrix: QRMatrix) -> QRMask {
        var best = all[0]
        var bestScore = Int.max
        for mask in all {
            var candidate = matrix
            candidate.apply(mask)
            let score = QRPenalty.score(candidate)
            if score < bestScore {
                best = mask
                bestScore = score
            }
        }
        return best
    }
}
