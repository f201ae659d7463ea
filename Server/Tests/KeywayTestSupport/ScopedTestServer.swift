/// A server a test starts, uses and then stops: the Keyway server itself, a key-set or webhook
/// server, an SMS gateway, a child process. ``withTestServer(_:isolation:_:)`` is the one way the
/// tests run one, so every server is stopped, and stopped gracefully.
public protocol ScopedTestServer: Sendable {
    /// Stops the server gracefully (no new connections, requests in progress answered) and returns
    /// once it has stopped. Calling it again does nothing more.
    func stop() async
}

/// Runs `body` with a server that was just started, and always stops the server gracefully and
/// waits for that before returning: when `body` returns, and when it throws.
///
/// ```swift
/// try await withTestServer(TestServer.start(clock: clock)) { server in
///     // … drive the server …
/// }
/// ```
///
/// The server is started by the argument expression, before `body` runs; a start that throws
/// leaves nothing to stop. This replaces a fire-and-forget `defer { Task { await server.stop() } }`,
/// which let a test end (and the next one start) while its server was still running, and cancelled
/// servers instead of shutting them down: a server cancelled with an accepted connection still
/// buffered trips a precondition in NIO's async channel writer in debug builds.
public func withTestServer<Server: ScopedTestServer, Result>(
    _ server: Server,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Server) async throws -> Result
) async throws -> Result {
    let result: Result
    do {
        result = try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
    return result
}

extension ScopedTestServer {
    /// Runs the set-up steps that follow a server's start, stopping the server if one of them
    /// throws, so a failed set-up leaves nothing running. Answers what `setUp` made.
    public func settingUp<Value>(_ setUp: (Self) async throws -> Value) async throws -> Value {
        do {
            return try await setUp(self)
        } catch {
            await stop()
            throw error
        }
    }
}
