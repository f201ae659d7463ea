import Foundation
import Keyway
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
        }
    }
}
