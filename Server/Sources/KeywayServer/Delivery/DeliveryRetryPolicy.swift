import Foundation

/// How often and how late the delivery worker tries a message again: exponential backoff
/// (`baseDelay`, twice that, four times…, at most `maxDelay`), each delay moved by up to
/// ±`jitter` of itself so messages that failed together do not retry together.
struct DeliveryRetryPolicy: Sendable, Equatable {
    /// Attempts before a message becomes a dead letter.
    var maxAttempts = 5
    /// The delay after the first failed attempt, in seconds.
    var baseDelay: TimeInterval = 2
    /// The longest delay, in seconds.
    var maxDelay: TimeInterval = 300
    /// The fraction (0…1) by which a delay may be shortened or lengthened at random.
    var jitter: Double = 0.2

    /// The delay after failed attempt number `attempt` (from 1), before jitter.
    func nominalDelay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(max(0, min(attempt - 1, 30)))
        return min(baseDelay * pow(2, exponent), maxDelay)
    }

    /// The delay after failed attempt number `attempt`, with jitter: `unit` is a random number in
    /// -1…1 (`-1` shortens by the full jitter, `1` lengthens by it).
    func delay(afterAttempt attempt: Int, unit: Double = Double.random(in: -1...1)) -> TimeInterval {
        let nominal = nominalDelay(afterAttempt: attempt)
        return max(0, nominal * (1 + jitter * max(-1, min(1, unit))))
    }

    /// The longest delay jitter can produce after attempt `attempt`.
    func longestDelay(afterAttempt attempt: Int) -> TimeInterval {
        nominalDelay(afterAttempt: attempt) * (1 + jitter)
    }
}
