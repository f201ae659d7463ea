import Foundation
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// The operator's fault: PostgreSQL stopped for ten seconds (`pg_ctl stop -m fast`, then started
/// again) under load from two `keyway-server` processes. Every request is answered, none `500`;
/// the first `503` comes within two seconds of the cut; readiness says `503` during the outage and
/// `200` within five seconds of the return; no connection stays counted as in use; and both
/// processes stop cleanly on SIGTERM afterwards. The instances sweep every second, so sweeps fall
/// in the outage: a sweep whose lock's session the outage ended once kept a server's stop waiting
/// for good. The cluster is the test's own (``PrivateCluster``): the one the other tests share is
/// never stopped.
@Suite("PostgreSQL stopped under load from two instances", .serialized)
struct DatabaseFaultTests {
    /// One request of the load and what became of it.
    struct Sample: Sendable {
        var instance: Int
        var kind: String
        var sent: ContinuousClock.Instant
        var answered: ContinuousClock.Instant
        /// The status, or `nil` when no answer came (an error or the client's deadline).
        var status: Int?
        var error: String?
    }

    /// The samples of every worker, and whether the load should stop.
    final class Load: @unchecked Sendable {
        // @unchecked: every property is touched only under `lock`.
        private let lock = NSLock()
        private var samples: [Sample] = []
        private var stopping = false
        var all: [Sample] { lock.withLock { samples } }
        var isStopping: Bool { lock.withLock { stopping } }
        func record(_ sample: Sample) { lock.withLock { samples.append(sample) } }
        func stop() { lock.withLock { stopping = true } }
        func count(where condition: (Sample) -> Bool) -> Int { lock.withLock { samples.filter(condition).count } }
    }

    @Test(.enabled(if: TestDatabase.isPostgres && PrivateCluster.available), .timeLimit(.minutes(10)))
    func twoInstancesAnswerEveryRequestThroughATenSecondOutage() async throws {
        let cluster = try await PrivateCluster.start()
        do {
            try await Self.run(on: cluster)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    /// The scraper's token: the metrics listener reads the metrics to it, from memory.
    static let metricsToken = "fault-metrics-token-0123456789abcdefghij"

    static func run(on cluster: PrivateCluster) async throws {
        let sweepEverySecond = ["--sweep-interval-seconds", "1"]
        async let first = MultiInstanceTests.start(cluster.url, metricsToken: Self.metricsToken, arguments: sweepEverySecond)
        async let second = MultiInstanceTests.start(cluster.url, metricsToken: Self.metricsToken, arguments: sweepEverySecond)
        let instances = try await [first, second]
        defer {
            Task { for instance in instances { await instance.process.stop() } }
        }
        let load = Load()
        // Four workers, each sending every 50 ms a flow start, a JWKS read or a readiness check
        // to one instance after the other, each from an address of its own (the per-address
        // limits are not what this test is about).
        let workers = (0..<4).map { worker in
            Task {
                var round = 0
                while !load.isStopping {
                    let index = (worker + round) % 2
                    let kind = ["flow", "jwks", "flow", "ready"][round % 4]
                    round += 1
                    load.record(await Self.send(kind, to: instances[index], index: index, worker: worker, round: round))
                    try? await Task.sleep(for: .milliseconds(50))
                }
            }
        }

        try await waitUntil("the load is answered by both instances", timeout: .seconds(120)) {
            Set(load.all.filter { $0.status == 201 }.map(\.instance)).count == 2
        }
        let cut = ContinuousClock.now
        try await cluster.pause()
        let stopped = ContinuousClock.now
        // The outage itself: ten seconds without the database. The scraper still reads the
        // metrics (its token is held in memory), once on each instance.
        var metricsDuring: [Int] = []
        for instance in instances {
            metricsDuring.append(try await Self.scrape(instance).status)
        }
        try await Task.sleep(until: stopped + .seconds(10), clock: .continuous)
        let resumeStarted = ContinuousClock.now
        try await cluster.resume()
        let resumed = ContinuousClock.now

        // Readiness on both instances, as a load balancer polls it.
        var readyAt: [ContinuousClock.Instant] = []
        for instance in instances {
            try await waitUntil("instance on port \(instance.port) is ready again", timeout: .seconds(60)) {
                try await instance.send("GET", "/health/ready").status == 200
            }
            readyAt.append(ContinuousClock.now)
        }
        // A little more load after the return, then stop it and wait for every worker.
        let afterReturn = load.count { $0.kind == "flow" && $0.status == 201 }
        try await waitUntil("flows start again on both instances", timeout: .seconds(60)) {
            load.count { $0.kind == "flow" && $0.status == 201 } >= afterReturn + 10
        }
        load.stop()
        for worker in workers { await worker.value }

        let samples = load.all
        // Every request answered, none 500 (nor any status outside what the load can get).
        let unanswered = samples.filter { $0.status == nil }
        #expect(unanswered.isEmpty, "\(unanswered.count) unanswered: \(unanswered.prefix(5).map { "\($0.kind) \($0.error ?? "")" })")
        let unexpected = samples.filter { $0.status.map { ![200, 201, 429, 503].contains($0) } ?? false }
        #expect(unexpected.isEmpty, "\(unexpected.prefix(5).map { "\($0.kind) \($0.status ?? 0)" })")

        // The first 503 within two seconds of the cut.
        let refused = samples.filter { $0.status == 503 }
        let firstRefusal = try #require(refused.map(\.answered).min(), "no request was answered 503")
        #expect(firstRefusal - cut < .seconds(2), "the first 503 came \(firstRefusal - cut) after the cut")
        // Readiness 503 while the database was away, and the keys read from memory.
        let during = samples.filter { $0.sent > stopped && $0.answered < resumeStarted }
        let readyDuring = during.filter { $0.kind == "ready" }
        #expect(!readyDuring.isEmpty && readyDuring.allSatisfy { $0.status == 503 }, "\(readyDuring.map(\.status))")
        #expect(metricsDuring.allSatisfy { $0 == 200 }, "scrapes during the outage: \(metricsDuring)")
        let keysDuring = during.filter { $0.kind == "jwks" }
        #expect(!keysDuring.isEmpty && keysDuring.allSatisfy { $0.status == 200 }, "\(keysDuring.map(\.status))")
        #expect(during.contains { $0.kind == "flow" && $0.status == 503 })
        // Ready again within five seconds of the database's return.
        for at in readyAt { #expect(at - resumed < .seconds(5), "ready \(at - resumed) after the return") }

        // No connection left counted as in use.
        for instance in instances {
            try await waitUntil("no connection is in use on port \(instance.port)", timeout: .seconds(20)) {
                try await Self.inUse(instance) == 0
            }
        }

        // SIGTERM: both stop cleanly, within the grace period.
        for instance in instances {
            let signalled = ContinuousClock.now
            instance.process.terminate()
            do {
                let status = try await instance.process.waitForExit(timeout: .seconds(60), killing: false)
                #expect(status == 0, "\(instance.process.standardError.suffix(2000))")
                #expect(ContinuousClock.now - signalled < .seconds(30))
                ShutdownTests.expectStepsOfAStop(in: instance.process.standardError)
            } catch {
                // The evidence of a shutdown that hangs: where its threads are, and how far its log got.
                // Taken before the process is killed: a killed process has no threads to show.
                let threads = await instance.process.threadBacktraces()
                instance.process.kill()
                Issue.record(
                    "keyway-server on port \(instance.port) did not stop within 60 s of SIGTERM.\nIts log's end:\n\(instance.process.standardError.suffix(3000))\nIts threads:\n\(threads.suffix(20000))")
            }
        }
    }

    /// The metrics of `instance`, from its metrics listener.
    static func scrape(_ instance: MultiInstanceTests.Instance) async throws -> (status: Int, text: String) {
        let response = try await RawHTTPClient.send(
            method: "GET", host: "127.0.0.1", port: try #require(instance.metricsPort), path: "/metrics",
            headers: ["Authorization": "Bearer \(metricsToken)"], body: nil)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    /// The connections `instance` counts as in use (both kinds); the gauges must be there.
    static func inUse(_ instance: MultiInstanceTests.Instance) async throws -> Double {
        let (status, text) = try await scrape(instance)
        guard status == 200 else { throw TestFailure("GET /metrics answered \(status)") }
        let gauges = ["read", "write"].compactMap { MetricsTests.sample(text, #"keyway_database_connections_in_use{kind="\#($0)"}"#) }
        guard !gauges.isEmpty else { throw TestFailure("no keyway_database_connections_in_use gauge in \(text.prefix(500))") }
        return gauges.reduce(0, +)
    }

    /// Sends one request of the load; an error or no answer within 15 seconds is a sample without
    /// a status.
    static func send(_ kind: String, to instance: MultiInstanceTests.Instance, index: Int, worker: Int, round: Int) async
        -> Sample
    {
        let sent = ContinuousClock.now
        let source = "127.0.\(worker + 1).\(round % 250 + 1)"
        let (method, path, headers, body): (String, String, [String: String], Data?) =
            switch kind {
            case "flow":
                (
                    "POST", "/v1/flows", [ProtocolHeader.configID: MultiInstanceTests.configId, "Content-Type": "application/json"],
                    ConnectionPoolTests.flowStart("fault-\(worker)-\(round)@example.com")
                )
            case "jwks": ("GET", "/.well-known/jwks.json", [:], nil)
            default: ("GET", "/health/ready", [:], nil)
            }
        do {
            let response = try await ConnectionPoolTests.answered("\(kind) \(round)", deadline: .seconds(15)) {
                try await RawHTTPClient.send(
                    method: method, host: "127.0.0.1", port: instance.port, path: path, headers: headers, body: body,
                    source: source)
            }
            return Sample(instance: index, kind: kind, sent: sent, answered: .now, status: response.status)
        } catch {
            return Sample(instance: index, kind: kind, sent: sent, answered: .now, status: nil, error: "\(error)")
        }
    }
}
