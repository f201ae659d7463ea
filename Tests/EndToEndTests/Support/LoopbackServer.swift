import Hummingbird
import Logging

/// Runs a test's own HTTP server (an issuer's key set, an SMS gateway) on an ephemeral loopback
/// port: answers the bound port and the task to cancel to stop it.
enum LoopbackServer {
    static func start(_ router: Router<BasicRequestContext>, label: String) async throws -> (port: Int, task: Task<Void, any Error>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: label)
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        var iterator = stream.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            task.cancel()
            throw CancellationError()
        }
        return (bound, task)
    }
}
