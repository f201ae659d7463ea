import ArgumentParser
import Foundation
import KeywayProtocol
import NIOCore
import NIOHTTP1
import NIOPosix

/// `keyway-bench password-flood`: how long a real password sign-in takes while other clients flood
/// the server with wrong passwords for made-up accounts (each a scrypt hash the server must
/// compute): the latency a credential-stuffing attack adds to everyone else's sign-in.
struct PasswordFloodCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "password-flood",
        abstract: "Times real password sign-ins, alone and while other clients send wrong passwords as fast as they can.")

    @OptionGroup var server: ServerTarget
    private var host: String { server.host }
    private var port: Int { server.port }
    private var configId: String { server.configId }

    @Option(help: "The server's admin token (to let the application sign in with passwords).")
    var adminToken: String

    @Option(help: "Flooding connections, each sending wrong passwords back to back from 127.0.0.2.")
    var attackers = 8

    @Option(help: "Real sign-ins timed alone, then again under the flood.")
    var samples = 4

    private static let password = "bench-passphrase-0123"

    func run() async throws {
        guard attackers >= 1, (1...5).contains(samples) else {
            throw ValidationError("Use at least one attacker and 1 to 5 samples (the account's password checks are limited).")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let client = SignInClient(configId: configId)
        let email = "pw-\(UInt32.random(in: 0...UInt32.max))@example.com"
        try await BenchConnection.with(host: host, port: port, group: group) { connection in
            try await allowPasswords(connection)
            try await signUp(connection, client: client, email: email)
        }
        progress("password-flood: account ready; timing \(samples) sign-ins alone")
        let alone = try await timedSignIns(client: client, email: email, group: group)

        let stop = Stopper()
        let tally = FloodTally()
        let flood = Task {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for attacker in 0..<attackers {
                    tasks.addTask {
                        try await BenchConnection.with(host: host, port: port, group: group, source: "127.0.0.2") {
                            connection in
                            while !stop.stopped {
                                let flow = try await client.start(connection, email: "flood-\(attacker)-\(UInt32.random(in: 0...UInt32.max))@example.com")
                                try await choosePassword(connection, flow: flow)
                                let answer = try await submitPassword(connection, flow: flow, password: "wrong-guess")
                                tally.record(answer)
                            }
                        }
                    }
                }
                try await tasks.waitForAll()
            }
        }
        // The flood reaches its steady state before the real sign-ins are timed.
        try await Task.sleep(for: .seconds(1))
        progress("password-flood: \(attackers) flooding connections; timing \(samples) sign-ins")
        let floodStart = ContinuousClock.now
        let flooded = try await timedSignIns(client: client, email: email, group: group)
        let floodSeconds = seconds(ContinuousClock.now - floodStart)
        stop.stop()
        try await flood.value
        try await group.shutdownGracefully()

        let checks = tally.counts
        print("### A real password sign-in while \(attackers) connections send wrong passwords\n")
        print(
            "Each flooding connection starts a flow for a made-up account, chooses the password and sends a wrong one, back to back, from another address (127.0.0.2); the real user signs in from 127.0.0.1 (start, choose the password, send it). A check the server sheds answers `503` with `wait`, and the real client retries after the second it is told.\n")
        print("| Real sign-in | samples | median | slowest | shed, retried |")
        print("| --- | ---: | ---: | ---: | ---: |")
        print(row("alone", alone))
        print(row("under the flood", flooded))
        print("")
        print(
            "The flood meanwhile: \(checks.checked) wrong passwords checked, \(checks.shed) shed at once with `wait` (\(String(format: "%.0f", Double(checks.checked + checks.shed) / max(floodSeconds, 0.001)))/s in all).")
    }

    private func row(_ name: String, _ timing: Timing) -> String {
        let sorted = timing.durations.sorted()
        let median = sorted[sorted.count / 2]
        return "| \(name) | \(sorted.count) | \(milliseconds(median)) | \(milliseconds(sorted.last ?? .zero)) | \(timing.shed) |"
    }

    private func milliseconds(_ duration: Duration) -> String {
        String(format: "%.0f ms", seconds(duration) * 1000)
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    struct Timing {
        var durations: [Duration] = []
        var shed = 0
    }

    /// Times `samples` whole password sign-ins of `email`, one after the other.
    private func timedSignIns(client: SignInClient, email: String, group: any EventLoopGroup) async throws -> Timing {
        var timing = Timing()
        for _ in 0..<samples {
            let started = ContinuousClock.now
            try await BenchConnection.with(host: host, port: port, group: group) { connection in
                let flow = try await client.start(connection, email: email)
                try await choosePassword(connection, flow: flow)
                while true {
                    let answer = try await submitPassword(connection, flow: flow, password: Self.password)
                    if answer == 503 {
                        timing.shed += 1
                        try await Task.sleep(for: .seconds(1))
                        continue
                    }
                    guard answer == 200 else { throw BenchFailure("password sign-in: HTTP \(answer)") }
                    break
                }
            }
            timing.durations.append(ContinuousClock.now - started)
        }
        return timing
    }

    private func allowPasswords(_ connection: BenchConnection) async throws {
        let policy = #"{"primaryMethods":["emailOtp","password"],"flowTypes":["signin","signup"]}"#
        let response = try await connection.send(
            .PUT, "/admin/applications/\(configId)/policy",
            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(adminToken)")],
            body: ByteBuffer(string: policy))
        guard response.status == 200 else {
            throw BenchFailure("policy: HTTP \(response.status) \(String(buffer: response.body).prefix(300))")
        }
    }

    /// Signs `email` up with the password: the code, then the password to create.
    private func signUp(_ connection: BenchConnection, client: SignInClient, email: String) async throws {
        let body = #"{"flowType":"signup","identifier":"\#(email)","codeChallenge":"\#(client.challenge)","codeChallengeMethod":"S256"}"#
        let started = try await connection.send(
            .POST, "/v1/flows", headers: [("Content-Type", "application/json"), (ProtocolHeader.configID, configId)],
            body: ByteBuffer(string: body))
        guard started.status == 201 else { throw BenchFailure("sign-up: HTTP \(started.status)") }
        struct Started: Decodable {
            let flowId: String
            let flowToken: String
        }
        let flow = try started.decode(Started.self, with: JSONDecoder())
        let code = try await client.code(connection, email: email)
        let verified = try await connection.send(
            .POST, "/v1/flows/\(flow.flowId)/code", headers: headers(flowToken: flow.flowToken),
            body: ByteBuffer(string: #"{"code":"\#(code)"}"#))
        guard verified.status == 200 else { throw BenchFailure("sign-up code: HTTP \(verified.status)") }
        let created = try await submitPassword(
            connection, flow: SignInClient.Flow(id: flow.flowId, token: flow.flowToken), password: Self.password)
        guard created == 200 else { throw BenchFailure("sign-up password: HTTP \(created)") }
    }

    private func headers(flowToken: String) -> [(String, String)] {
        [("Content-Type", "application/json"), (ProtocolHeader.configID, configId), (ProtocolHeader.flowToken, flowToken)]
    }

    private func choosePassword(_ connection: BenchConnection, flow: SignInClient.Flow) async throws {
        let response = try await connection.send(
            .POST, "/v1/flows/\(flow.id)/method", headers: headers(flowToken: flow.token),
            body: ByteBuffer(string: #"{"methodId":"password"}"#))
        guard response.status == 200 else { throw BenchFailure("method: HTTP \(response.status)") }
    }

    /// Sends a password; answers the HTTP status.
    private func submitPassword(_ connection: BenchConnection, flow: SignInClient.Flow, password: String) async throws -> Int {
        try await connection.send(
            .POST, "/v1/flows/\(flow.id)/password", headers: headers(flowToken: flow.token),
            body: ByteBuffer(string: #"{"password":"\#(password)"}"#)
        ).status
    }
}

/// A flag the flooding tasks read, set once.
final class Stopper: @unchecked Sendable {
    // @unchecked: `isSet` is only touched under `lock`.
    private let lock = NSLock()
    private var isSet = false
    var stopped: Bool { lock.withLock { isSet } }
    func stop() { lock.withLock { isSet = true } }
}

/// What the flood's answers were: checked (a wrong password) or shed (`503`).
final class FloodTally: @unchecked Sendable {
    // @unchecked: the counts are only touched under `lock`.
    private let lock = NSLock()
    private var checked = 0
    private var shed = 0

    func record(_ status: Int) {
        lock.withLock {
            if status == 503 { shed += 1 } else { checked += 1 }
        }
    }

    var counts: (checked: Int, shed: Int) { lock.withLock { (checked, shed) } }
}
