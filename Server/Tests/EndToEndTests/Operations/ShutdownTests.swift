import Foundation
@testable import Keyway
import KeywayServer
import KeywayTestSupport
import NIOCore
import NIOPosix
import Testing

/// A TCP connection to a server that sends nothing (or the start of a request, then nothing), and
/// learns when the server closes it.
struct IdleConnection: Sendable {
    let closed: Task<Bool, Never>

    /// Connects to `port`, sends `prefix`, and waits, in the background, for the server to close
    /// the connection.
    static func open(port: Int, sending prefix: String = "") async throws -> IdleConnection {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        let closed = Task {
            (try? await channel.executeThenClose { inbound, outbound in
                if !prefix.isEmpty { try await outbound.write(ByteBuffer(string: prefix)) }
                for try await _ in inbound {}
                return true
            }) ?? true
        }
        return IdleConnection(closed: closed)
    }
}

extension IdleConnection {
    /// Sends `text` as raw bytes and answers everything the server wrote until it closed.
    static func exchange(port: Int, sending text: String) async throws -> String {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(bytes: Array(text.utf8)))
            var received = ByteBuffer()
            for try await var chunk in inbound { received.writeBuffer(&chunk) }
            return String(buffer: received)
        }
    }
}

extension Array where Element == String {
    /// The first two elements, the second empty when missing.
    var pair: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}

/// The time limits are deadlock guards: a shutdown that hangs trips them; on a loaded machine
/// (the whole suite on PostgreSQL beside a release build) the set-up alone can take minutes.
@Suite("Graceful shutdown")
struct ShutdownTests {
    @Test(.timeLimit(.minutes(10)))
    func aShutdownAnswersTheLongPollInProgressAndClosesIdleConnections() async throws {
        try await withTestServer(ApprovalTests.setUp()) { setup in
            let server = setup.harness.server
            var idle: [IdleConnection] = []
            for _ in 0..<4 { idle.append(try await IdleConnection.open(port: server.port)) }
            let recorded = try await server.rowCount("device_request_signatures")
            let trusted = setup.trusted
            let waiting = Task { try await trusted.pendingApprovals(for: ApprovalTests.email, waitSeconds: 30) }
            // The server records a list request's signature just before it starts waiting.
            try await waitUntil("the long poll is waiting on the server") {
                try await server.rowCount("device_request_signatures") > recorded
            }

            let stopping = ContinuousClock.now
            await server.stop()
            // The long poll was answered (an empty list), not dropped, and it did not hold the
            // shutdown up for its 30 seconds.
            #expect(try await waiting.value.isEmpty)
            #expect(ContinuousClock.now - stopping < .seconds(25))
            for connection in idle { #expect(await connection.closed.value) }
            // Nothing listens any more.
            await #expect(throws: (any Error).self) { _ = try await server.request("GET", "/health") }
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func keywayServerStopsGracefullyOnSIGTERM() async throws {
        let database = TestServer.temporaryDatabase()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: database).deletingLastPathComponent(), withIntermediateDirectories: true)
        let process = try CLIProcess(
            arguments: ["serve", "--port", "0", "--database", "sqlite:\(database)"], executable: "keyway-server")
        try await withTestServer(process) { process in
            try await process.waitForError(containing: "keyway-server listening on")
            let line = process.standardError.split(separator: "\n").first { $0.contains("keyway-server listening on") } ?? ""
            let port = try #require(
                line.firstMatch(of: /listening on [^ ]+:([0-9]+),/).flatMap { Int($0.output.1) })
            let connection = try await IdleConnection.open(port: port)
            process.terminate()
            #expect(try await process.waitForExit() == 0, "stderr: \(process.standardError)")
            #expect(await connection.closed.value)
            // The log tells the stop step by step, in order, and nothing had to be cancelled.
            Self.expectStepsOfAStop(in: process.standardError)
        }
    }

    /// A stop that waits for a request names it in the log after 5 s — method, route template,
    /// age and trace ID, never its path — and ends as soon as the request does.
    @Test(.timeLimit(.minutes(10)))
    func aStopWaitingForARequestNamesItAndEndsWhenItDoes() async throws {
        try await withStoppingServer { process, port, metricsPort in
            let held = try await HeldRequest.open(port: port, metricsPort: metricsPort)
            process.terminate()
            try await process.waitForError(
                containing: "the public listener has not stopped 5 s into the shutdown; still answering: POST /v1/flows for")
            #expect(!process.standardError.contains("keyway-server stopped"))
            try await held.close()
            #expect(try await process.waitForExit(timeout: .seconds(60)) == 0, "\(process.standardError.suffix(3000))")
            Self.expectStepsOfAStop(in: process.standardError)
        }
    }

    /// A request that never ends does not hold the stop up for good: 15 s after SIGTERM it is
    /// cancelled, the log says what was cancelled, and the process exits.
    @Test(.timeLimit(.minutes(10)))
    func aStopEndsWhenARequestNeverDoes() async throws {
        try await withStoppingServer { process, port, metricsPort in
            let held = try await HeldRequest.open(port: port, metricsPort: metricsPort)
            let signalled = ContinuousClock.now
            process.terminate()
            _ = try await process.waitForExit(timeout: .seconds(60))
            let took = ContinuousClock.now - signalled
            #expect(took >= .seconds(14) && took < .seconds(30), "stopped \(took) after SIGTERM")
            #expect(
                process.standardError.contains(/cancelled: the public listener had not stopped by itself 1[4-6] s after it was asked/),
                "\(process.standardError.suffix(3000))")
            #expect(process.standardError.contains("keyway-server stopped"), "\(process.standardError.suffix(3000))")
            try? await held.close()
        }
    }

    /// Runs `body` with a `keyway-server serve` on a fresh SQLite file, its public port, and the
    /// port of its metrics listener (read with ``HeldRequest/metricsToken``).
    private func withStoppingServer(_ body: (CLIProcess, Int, Int) async throws -> Void) async throws {
        let database = TestServer.temporaryDatabase()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: database).deletingLastPathComponent(), withIntermediateDirectories: true)
        let process = try CLIProcess(
            arguments: ["serve", "--port", "0", "--database", "sqlite:\(database)", "--metrics-listen", "127.0.0.1:0"],
            environment: ["KEYWAY_METRICS_TOKEN": HeldRequest.metricsToken], executable: "keyway-server")
        try await withTestServer(process) { process in
            try await process.waitForError(containing: "keyway-server listening on")
            try await process.waitForError(containing: "metrics listening on")
            let port = try #require(
                process.standardError.firstMatch(of: /keyway-server listening on [^ ]+:([0-9]+),/).flatMap { Int($0.output.1) })
            let metricsPort = try #require(
                process.standardError.firstMatch(of: /metrics listening on http:\/\/127\.0\.0\.1:([0-9]+)\/metrics/)
                    .flatMap { Int($0.output.1) })
            try await body(process, port, metricsPort)
        }
    }

    /// Checks that `log` tells a stop step by step, in order — its notice, each listener and
    /// background service, the database closed, the end — and that nothing had to be cancelled.
    static func expectStepsOfAStop(in log: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let steps = [
            "stopping: no new connections", "stopped: the public listener", "stopped: the delivery worker",
            "stopped: the maintenance sweep", "closing the database connections", "keyway-server stopped",
        ]
        var rest = Substring(log)
        for step in steps {
            guard let found = rest.range(of: step) else {
                Issue.record(
                    "no \"\(step)\" after the previous step in:\n\(log.suffix(3000))", sourceLocation: sourceLocation)
                return
            }
            rest = rest[found.upperBound...]
        }
        #expect(!log.contains("cancelled:"), "\(log.suffix(3000))", sourceLocation: sourceLocation)
    }
}

/// A request whose head has arrived and whose body never comes: the server is answering it (its
/// route is running, waiting for the body) until the client closes the connection.
struct HeldRequest {
    static let metricsToken = "shutdown-metrics-token-0123456789abcdef"
    let channel: any Channel

    /// Sends the head of `POST /v1/flows` and one byte of its 64-byte body to `port`, and returns
    /// once the server counts it in progress (`keyway_http_requests_in_progress`, read from the
    /// metrics listener on `metricsPort`).
    static func open(port: Int, metricsPort: Int) async throws -> HeldRequest {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.writeAndFlush(
            ByteBuffer(
                string:
                    "POST /v1/flows HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n{"
            )
        ).get()
        try await waitUntil("the server is answering the held request") {
            let response = try await RawHTTPClient.send(
                method: "GET", host: "127.0.0.1", port: metricsPort, path: "/metrics",
                headers: ["Authorization": "Bearer \(metricsToken)"], body: nil)
            let text = String(decoding: response.body, as: UTF8.self)
            return MetricsTests.sample(text, "keyway_http_requests_in_progress") == 1
        }
        return HeldRequest(channel: channel)
    }

    /// Closes the connection: the body never comes, and the request ends.
    func close() async throws {
        try await channel.close().get()
    }
}
