import PostgresNIO

/// Stops waiting for work whose connection closed under it.
///
/// PostgresNIO fails the statements a connection has in flight when it closes, but a statement
/// written after its channel closed — the `ROLLBACK` after a statement the database ended the
/// connection on, or the next statement of a transaction whose session was terminated between two
/// — is dropped by the closed channel and never answered. A request awaiting it would wait
/// forever, and with it the graceful shutdown of its server. So each connection is watched (one
/// callback on its close, registered the first time it is leased), and when it closes the work
/// running on it gets ``grace`` to finish; then its caller is answered ``DatabaseUnavailable`` and
/// the work is left behind, cancelled. It holds nothing but the closed connection, which the pool
/// has already replaced.
final class ClosedConnectionWatch: Sendable {
    /// How long work may still run once its connection closed: statements in flight then fail
    /// within milliseconds.
    let grace: Duration
    private struct Watched {
        /// Fails the work running on the connection now, if any.
        var fail: (@Sendable () async -> Void)?
    }
    private let connections = Locked<[PostgresConnection.ID: Watched]>([:])

    init(grace: Duration = .seconds(2)) {
        self.grace = grace
    }

    /// Runs `body` on `connection` and answers its outcome, or ``DatabaseUnavailable`` once the
    /// connection has closed and `body` has not finished within ``grace``.
    func run<T: Sendable>(
        on connection: PostgresConnection, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let outcome = Resumption<T>()
        let work = Task {
            do {
                await outcome.resume(with: .success(try await body()))
            } catch {
                await outcome.resume(with: .failure(error))
            }
        }
        let fail: @Sendable () async -> Void = {
            let failure = DatabaseUnavailable(
                description: "The database connection closed under a statement that was never answered.")
            if await outcome.resume(with: .failure(failure)) { work.cancel() }
        }
        let id = connection.id
        let firstLease = connections.withLock { watched -> Bool in
            let first = watched[id] == nil
            watched[id, default: Watched()].fail = fail
            return first
        }
        if firstLease {
            let grace = self.grace
            connection.closeFuture.whenComplete { [connections] _ in
                let current = connections.withLock { $0.removeValue(forKey: id)?.fail }
                guard let current else { return }
                Task {
                    try? await Task.sleep(for: grace)
                    await current()
                }
            }
        }
        if connection.isClosed {
            // Closed before its callback was registered (which then ran at once) or between.
            Task {
                try? await Task.sleep(for: grace)
                await fail()
            }
        }
        defer { connections.withLock { if $0[id] != nil { $0[id]?.fail = nil } } }
        return try await withTaskCancellationHandler {
            try await outcome.value()
        } onCancel: {
            work.cancel()
        }
    }
}

/// A result recorded once, by whichever of the work and its watch comes first, and awaited once.
private actor Resumption<T: Sendable> {
    private var result: Result<T, any Error>?
    private var waiter: CheckedContinuation<T, any Error>?

    /// Records `result` unless one was recorded already; `true` when this one counts.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        guard self.result == nil else { return false }
        self.result = result
        if let waiter {
            self.waiter = nil
            waiter.resume(with: result)
        }
        return true
    }

    /// The first result recorded, waiting for it when there is none yet.
    func value() async throws -> T {
        if let result { return try result.get() }
        return try await withCheckedThrowingContinuation { waiter = $0 }
    }
}
