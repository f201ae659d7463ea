import Foundation

/// One measure's figures, as `keyway-bench load --figures` writes them for `keyway-bench targets`.
struct Figure: Codable, Sendable {
    /// The scenario (`sign-in`, `code redemption`, `refresh`, `JWKS GET`, `discovery GET`).
    var scenario: String
    /// `closed` (peak) or `open` (half of peak).
    var mode: String
    var throughput: Double
    /// Milliseconds.
    var p99: Double
    var p999: Double

    init(_ result: LoadResult) {
        scenario = result.scenario
        mode = result.mode
        throughput = result.throughput
        p99 = result.percentile(99)
        p999 = result.percentile(99.9)
    }

    static func read(_ path: String) throws -> [Figure] {
        try JSONDecoder().decode([Figure].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func write(_ figures: [Figure], to path: String) throws {
        try JSONEncoder().encode(figures).write(to: URL(fileURLWithPath: path))
    }
}

extension [Figure] {
    func peak(_ scenario: String) -> Figure? { first { $0.scenario == scenario && $0.mode == "closed" } }
    func half(_ scenario: String) -> Figure? { first { $0.scenario == scenario && $0.mode == "open" } }
}
