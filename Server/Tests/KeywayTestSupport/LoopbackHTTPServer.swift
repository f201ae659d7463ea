import Hummingbird
import Logging
import ServiceLifecycle

/// A test's own HTTP server (an issuer's key set, an SMS gateway, a webhook receiver) on an
/// ephemeral loopback port, run in a service group so that ``stop()`` shuts it down gracefully
/// instead of cancelling it.
public final class LoopbackHTTPServer: ScopedTestServer, Sendable {
    /// The bound port.
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Serves `router` on 127.0.0.1 and returns once the socket is bound.
    public static func start<Context: RequestContext>(_ router: Router<Context>, label: String) async throws
        -> LoopbackHTTPServer where Context.Source == ApplicationRequestContextSource
    {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: label)
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = stream.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            // The server stopped before binding: report why.
            try await task.value
            throw LoopbackServerError(label: label)
        }
        return LoopbackHTTPServer(port: bound, group: group, task: task)
    }

    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}

/// A loopback server that stopped before it was listening.
public struct LoopbackServerError: Error, CustomStringConvertible {
    public let label: String
    public var description: String { "The \(label) stopped before it was listening." }
}
