import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// `keyway-bench load`: drives a running dev-mode server through every scenario.
struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Drives a running dev-mode keyway-server: memory, discovery/JWKS, sign-ins, code redemption, refresh.")

    @OptionGroup var server: ServerTarget
    private var host: String { server.host }
    private var port: Int { server.port }
    private var configId: String { server.configId }

    @Option(help: "The server's process ID, for its resident memory.")
    var serverPid: Int32?

    @Option(
        name: .customLong("also-port"),
        help: "Another instance of the server on the same database (repeatable): the users are spread over every port.")
    var alsoPorts: [Int] = []

    @Option(help: "Concurrent virtual users, one keep-alive connection each.")
    var users = 32

    @Option(help: "Warm-up seconds before each measured window.")
    var warmup = 2.0

    @Option(help: "Seconds of each measured window.")
    var duration = 10.0

    @Option(help: "Flows to start and leave open for the memory measure.")
    var memoryFlows = 10_000

    @Option(help: "Requests with a random 4,000-letter path segment sent after the open flows, for the memory measure.")
    var randomPathRequests = 10_000

    @Option(
        help: "The server's admin token, to read its /metrics exposition: its size after the memory measure, and the database round trips of each peak measure (PostgreSQL).")
    var adminToken: String?

    @Option(help: "The crypto baseline JSON written by `keyway-bench crypto`.")
    var crypto: String?

    @Option(help: "Write every measure's throughput, p99 and p99.9 as JSON to this file (for `keyway-bench targets`).")
    var figures: String?

    @Option(
        help: "Comma-separated parts to run: memory, get, signin, redeem, refresh (default: all).",
        transform: { text in Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) })
    var only: Set<String>?

    private func wants(_ part: String) -> Bool { only?.contains(part) ?? true }

    func run() async throws {
        if let only, let unknown = only.subtracting(["memory", "get", "signin", "redeem", "refresh"]).first {
            throw ValidationError("Unknown part \(unknown): use memory, get, signin, redeem or refresh.")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var runner = LoadRunner(host: host, port: port, group: group)
        runner.otherPorts = alsoPorts
        let client = SignInClient(configId: configId)
        let tag = "b\(UInt32.random(in: 0...UInt32.max))"
        let warm = Duration.milliseconds(Int64(warmup * 1000))
        let measure = Duration.milliseconds(Int64(duration * 1000))
        var results: [LoadResult] = []
        var halfLoad: [LoadResult] = []
        var notes: [String] = []
        var roundTrips: [RoundTrips.Measure] = []
        /// Runs a peak measure, with the round trips its routes sent when the server counts them.
        func countingRoundTrips(_ scenario: String, _ run: () async throws -> LoadResult) async throws -> LoadResult {
            guard let adminToken else { return try await run() }
            let before = try await RoundTrips.read(host: host, port: port, adminToken: adminToken, group: group)
            let result = try await run()
            let after = try await RoundTrips.read(host: host, port: port, adminToken: adminToken, group: group)
            let routes = RoundTrips.difference(before, after)
            if !routes.isEmpty { roundTrips.append(RoundTrips.Measure(scenario: scenario, routes: routes)) }
            return result
        }

        // 1. Memory, on the fresh server before anything else has run.
        var memory: Report.Memory?
        if let serverPid, wants("memory") {
            let idle = try ProcessMemory.residentBytes(of: serverPid)
            progress("memory: idle RSS \(idle / 1024) KiB; starting \(memoryFlows) flows")
            let perUser = max(1, memoryFlows / users)
            let opened = try await runner.closedLoop(
                OpenFlowScenario(client: client, tag: "\(tag)m", perUser: perUser), users: users, warmup: .zero,
                measure: .seconds(600))
            try check(opened)
            // Let the server settle (the maintenance sweep, allocator) before reading.
            try await Task.sleep(for: .seconds(1))
            let loaded = try ProcessMemory.residentBytes(of: serverPid)
            progress("memory: \(loaded / 1024) KiB with the flows; sending \(randomPathRequests) random paths")
            // What unauthenticated strangers cannot grow: the metrics' labels, the log, any cache.
            let strangers = try await runner.closedLoop(
                RandomPathScenario(perUser: max(1, randomPathRequests / users)), users: users, warmup: .zero,
                measure: .seconds(600))
            try check(strangers)
            guard strangers.errors == 0 else { throw BenchFailure("random paths: \(strangers.firstError ?? "an error")") }
            try await Task.sleep(for: .seconds(1))
            let afterStrangers = try ProcessMemory.residentBytes(of: serverPid)
            var exposition: Int?
            if let adminToken {
                exposition = try await BenchConnection.with(host: host, port: port, group: group) { connection in
                    let response = try await connection.send(.GET, "/metrics", headers: [("Authorization", "Bearer \(adminToken)")])
                    guard response.status == 200 else { throw BenchFailure("GET /metrics: HTTP \(response.status)") }
                    return response.body.readableBytes
                }
            }
            memory = Report.Memory(
                idleBytes: idle, loadedBytes: loaded, flows: opened.completed, randomPathRequests: strangers.completed,
                afterRandomPathsBytes: afterStrangers, metricsBytes: exposition)
        }

        // 2. The HTTP floor: discovery and JWKS.
        if wants("get") {
            for scenario in [
                GetScenario(name: "JWKS GET", path: "/.well-known/jwks.json"),
                GetScenario(name: "discovery GET", path: "/.well-known/openid-configuration"),
            ] {
                let peak = try measured(await runner.closedLoop(scenario, users: users, warmup: warm, measure: measure))
                results.append(peak)
                halfLoad.append(
                    try measured(
                        await runner.openLoop(
                            scenario, users: users, rate: peak.throughput / 2, warmup: warm, measure: measure)))
            }
        }

        // 3. Whole sign-ins.
        var signInRate: Double?
        if wants("signin") {
            let signIn = SignInScenario(client: client, tag: "\(tag)s")
            let signInPeak = try measured(
                await countingRoundTrips("sign-in") {
                    try await runner.closedLoop(signIn, users: users, warmup: warm, measure: measure)
                })
            results.append(signInPeak)
            signInRate = signInPeak.throughput
            halfLoad.append(
                try measured(
                    await runner.openLoop(
                        SignInScenario(client: client, tag: "\(tag)h"), users: users, rate: signInPeak.throughput / 2,
                        warmup: warm, measure: measure)))
        }

        // 4. Code redemption alone. Codes live 60 seconds, so a pool must be used up well inside
        // that: the pool is sized to the measured window at the expected rate, and a user whose
        // pool runs dry stops (the window then ends early and throughput counts only real work).
        if wants("redeem") {
            let expected = (signInRate ?? 200) * 3
            let pool = try await prepareCodes(
                client: client, group: group, tag: "\(tag)p", total: poolSize(rate: expected, seconds: duration))
            let redeemPeak = try measured(
                await countingRoundTrips("code redemption") {
                    try await runner.closedLoop(
                        RedeemScenario(client: client, pool: pool), users: users, warmup: .zero,
                        measure: .milliseconds(Int64(duration * 1000)))
                })
            results.append(redeemPeak)
            let halfRate = redeemPeak.throughput / 2
            let halfPool = try await prepareCodes(
                client: client, group: group, tag: "\(tag)q", total: poolSize(rate: halfRate, seconds: duration))
            halfLoad.append(
                try measured(
                    await runner.openLoop(
                        RedeemScenario(client: client, pool: halfPool), users: users, rate: halfRate, warmup: .zero,
                        measure: .milliseconds(Int64(duration * 1000)))))
        }

        // 5. Refresh grants: each user keeps one token family and refreshes it back to back.
        if wants("refresh") {
            if try await serverSupportsRefresh(group: group) {
                let peakTokens = try await prepareRefreshTokens(client: client, group: group, tag: "\(tag)r")
                let refreshPeak = try measured(
                    await countingRoundTrips("refresh") {
                        try await runner.closedLoop(
                            RefreshScenario(client: client, tokens: peakTokens), users: users, warmup: warm,
                            measure: measure)
                    })
                results.append(refreshPeak)
                let halfTokens = try await prepareRefreshTokens(client: client, group: group, tag: "\(tag)t")
                halfLoad.append(
                    try measured(
                        await runner.openLoop(
                            RefreshScenario(client: client, tokens: halfTokens), users: users,
                            rate: refreshPeak.throughput / 2, warmup: warm, measure: measure)))
            } else {
                notes.append(
                    "refresh grants: skipped — the server does not offer the refresh_token grant (its discovery document does not list it)")
                progress("refresh: skipped, the server does not offer the refresh_token grant")
            }
        }

        let retried = BenchConnection.retriedAfter503.withLockedValue { $0 }
        if retried > 0 {
            notes.append(
                "\(retried) requests were answered `503` with `Retry-After` (the server shed them, keeping nothing) and sent again after the time it named; the waits are in the latencies")
        }
        let baseline = try crypto.map { try JSONDecoder().decode(CryptoBaseline.self, from: Data(contentsOf: URL(fileURLWithPath: $0))) }
        print(
            Report.load(
                results: results, halfLoad: halfLoad, baseline: baseline, memory: memory, roundTrips: roundTrips,
                notes: notes))
        if let figures { try Figure.write((results + halfLoad).map(Figure.init), to: figures) }
        try await group.shutdownGracefully()
        if (results + halfLoad).contains(where: { $0.errors > 0 }) { throw ExitCode.failure }
    }

    /// Codes for `seconds` at `rate`, plus a margin, at least four per user.
    private func poolSize(rate: Double, seconds: Double) -> Int {
        max(users * 4, Int(rate * seconds * 1.2))
    }

    /// One fresh refresh token per user (a sign-in and a code redemption each).
    private func prepareRefreshTokens(client: SignInClient, group: any EventLoopGroup, tag: String) async throws -> RefreshTokens {
        let tokens = RefreshTokens(count: users)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for user in 0..<users {
                tasks.addTask {
                    try await BenchConnection.with(host: host, port: port, group: group) { connection in
                        let code = try await client.authorizationCode(connection, email: "\(tag)-\(user)@bench.example")
                        tokens.set(try await client.redeem(connection, authCode: code), for: user)
                    }
                }
            }
            try await tasks.waitForAll()
        }
        return tokens
    }

    /// Runs a measure, prints progress, and fails on a run without any completed iteration.
    private func measured(_ result: LoadResult) throws -> LoadResult {
        progress(
            String(
                format: "%@ (%@, %d users): %.0f/s, p50 %.2f ms, p99 %.2f ms, errors %d", result.scenario, result.mode,
                result.users, result.throughput, result.percentile(50), result.percentile(99), result.errors))
        try check(result)
        return result
    }

    private func check(_ result: LoadResult) throws {
        if let error = result.firstError { progress("  first error: \(error)") }
        guard result.completed > 0 else {
            throw BenchFailure("\(result.scenario): no iteration completed. \(result.firstError ?? "")")
        }
    }

    /// Completes `total` sign-in flows (without redeeming) and returns their codes per user.
    private func prepareCodes(client: SignInClient, group: any EventLoopGroup, tag: String, total: Int) async throws -> [[String]] {
        let perUser = max(1, total / users)
        let clock = ContinuousClock()
        let start = clock.now
        let pool = try await withThrowingTaskGroup(of: (Int, [String]).self) { tasks in
            for user in 0..<users {
                tasks.addTask {
                    try await BenchConnection.with(host: host, port: port, group: group) { connection in
                        var codes: [String] = []
                        codes.reserveCapacity(perUser)
                        for index in 0..<perUser {
                            codes.append(
                                try await client.authorizationCode(connection, email: "\(tag)-\(user)-\(index)@bench.example"))
                        }
                        return (user, codes)
                    }
                }
            }
            var pool = [[String]](repeating: [], count: users)
            for try await (user, codes) in tasks { pool[user] = codes }
            return pool
        }
        progress("prepared \(perUser * users) authorization codes in \(start.duration(to: clock.now))")
        return pool
    }

    private func serverSupportsRefresh(group: any EventLoopGroup) async throws -> Bool {
        struct Discovery: Decodable { let grant_types_supported: [String] }
        return try await BenchConnection.with(host: host, port: port, group: group) { connection in
            let response = try await connection.send(.GET, "/.well-known/openid-configuration")
            return try response.decode(Discovery.self, with: JSONDecoder()).grant_types_supported.contains("refresh_token")
        }
    }
}
