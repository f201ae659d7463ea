import Foundation
import Histogram
import NIOCore

/// Drives a scenario with a fixed number of virtual users, each on its own keep-alive connection:
/// a warm-up whose iterations are not recorded, then a measured window.
struct LoadRunner: Sendable {
    let host: String
    let port: Int
    let group: any EventLoopGroup
    /// Further instances of the server on one database: the users are spread over `port` and
    /// these, one connection each, in turn.
    var otherPorts: [Int] = []

    /// One user's tally.
    private struct Tally: Sendable {
        var completed = 0
        var errors = 0
        var firstError: String?
        var latencies = LoadResult.emptyHistogram()
        var stoppedAt: ContinuousClock.Instant?
    }

    /// Every user runs iterations back to back (closed loop): the peak throughput.
    func closedLoop(
        _ scenario: any Scenario, users: Int, warmup: Duration, measure: Duration
    ) async throws -> LoadResult {
        try await run(scenario, users: users, warmup: warmup, measure: measure, rate: nil)
    }

    /// Iterations start at a fixed total `rate` per second spread over the users (open loop).
    /// Latency counts from each iteration's scheduled start, so a stalled server is not hidden
    /// by users that waited for it (coordinated omission).
    func openLoop(
        _ scenario: any Scenario, users: Int, rate: Double, warmup: Duration, measure: Duration
    ) async throws -> LoadResult {
        try await run(scenario, users: users, warmup: warmup, measure: measure, rate: rate)
    }

    private func run(
        _ scenario: any Scenario, users: Int, warmup: Duration, measure: Duration, rate: Double?
    ) async throws -> LoadResult {
        let clock = ContinuousClock()
        // Connect everyone first so connection set-up is not measured.
        let start = clock.now + .milliseconds(200)
        let measureFrom = start + warmup
        let measureUntil = measureFrom + measure
        let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
            for user in 0..<users {
                group.addTask {
                    let ports = [port] + otherPorts
                    return try await BenchConnection.with(host: host, port: ports[user % ports.count], group: self.group) {
                        connection in
                        try await clock.sleep(until: start)
                        return await Self.user(
                            user, of: users, scenario: scenario, connection: connection, clock: clock, start: start,
                            measureFrom: measureFrom, measureUntil: measureUntil, rate: rate)
                    }
                }
            }
            var all: [Tally] = []
            for try await tally in group { all.append(tally) }
            return all
        }
        var result = LoadResult(
            scenario: scenario.name, mode: rate == nil ? "closed" : "open", users: users, completed: 0, errors: 0,
            firstError: nil, seconds: 0, latencies: LoadResult.emptyHistogram())
        var lastStop = measureFrom
        for tally in tallies {
            result.completed += tally.completed
            result.errors += tally.errors
            result.firstError = result.firstError ?? tally.firstError
            result.latencies.add(tally.latencies)
            lastStop = max(lastStop, min(tally.stoppedAt ?? measureUntil, measureUntil))
        }
        let elapsed = measureFrom.duration(to: lastStop)
        result.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return result
    }

    private static func user(
        _ user: Int, of users: Int, scenario: any Scenario, connection: BenchConnection, clock: ContinuousClock,
        start: ContinuousClock.Instant, measureFrom: ContinuousClock.Instant, measureUntil: ContinuousClock.Instant,
        rate: Double?
    ) async -> Tally {
        var tally = Tally()
        let interval: Duration? = rate.map { .nanoseconds(Int64(Double(users) / $0 * 1e9)) }
        var scheduled = start + (interval.map { $0 * (Double(user) / Double(users)) } ?? .zero)
        var index = 0
        while true {
            if interval != nil {
                if clock.now < scheduled { try? await clock.sleep(until: scheduled) }
            } else {
                scheduled = clock.now
            }
            if scheduled >= measureUntil { break }
            do {
                guard try await scenario.iteration(on: connection, user: user, index: index) else {
                    tally.stoppedAt = clock.now
                    return tally
                }
                let finished = clock.now
                if scheduled >= measureFrom, finished <= measureUntil {
                    tally.completed += 1
                    let latency = scheduled.duration(to: finished)
                    let micros = latency.components.seconds * 1_000_000 + latency.components.attoseconds / 1_000_000_000_000
                    _ = tally.latencies.record(UInt64(max(1, micros)))
                }
            } catch {
                tally.errors += 1
                if tally.firstError == nil { tally.firstError = String(describing: error) }
                if error is ChannelError || error is IOError {
                    tally.stoppedAt = clock.now
                    return tally
                }
            }
            index += 1
            if let interval { scheduled = scheduled + interval }
        }
        return tally
    }
}
