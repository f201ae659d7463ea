import Histogram

/// What one measured run produced.
struct LoadResult: Sendable {
    var scenario: String
    /// `closed` (users as fast as they can) or `open` (a fixed arrival rate).
    var mode: String
    var users: Int
    /// Iterations that finished inside the measured window.
    var completed: Int
    /// Failed iterations, warm-up included.
    var errors: Int
    var firstError: String?
    /// The measured window's length.
    var seconds: Double
    /// Latencies in microseconds (for open-loop runs, from each iteration's scheduled start).
    var latencies: Histogram<UInt64>

    var throughput: Double { seconds > 0 ? Double(completed) / seconds : 0 }

    func percentile(_ value: Double) -> Double { Double(latencies.valueAtPercentile(value)) / 1000 }
    var maxMilliseconds: Double { Double(latencies.max) / 1000 }

    static func emptyHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: .three)
    }
}
