import Dispatch
import Logging

/// Write transactions that arrive together commit together (group commit).
///
/// Every write is queued; one drain task at a time takes everything queued, opens one SQLite
/// transaction, runs each write inside a savepoint of its own (so a write that throws rolls back
/// only its own statements), and commits once. Each caller is answered only after that commit, so
/// nothing is ever reported done that is not in the database. A write alone in its batch runs in a
/// plain transaction, without a savepoint: an idle server pays nothing for the batching.
///
/// On one writer connection a commit costs more than the statements of a small transaction (the
/// pages it changed are appended to the write-ahead log, and the log index updated): writes that
/// touch the same pages (a table's last leaf, its indexes) share one append.
final class GroupCommit: Sendable {
    /// The most writes one transaction holds, so one batch never keeps its first caller waiting
    /// long.
    static let batchLimit = 64

    private struct State: Sendable {
        var queue: [any QueuedWrite] = []
        var draining = false
        var transactions = 0
    }

    private let state = Locked(State())
    private let writer: SQLiteHandle
    private let logger: Logger
    /// Held while a batch runs, and by ``close()``.
    private let lock = AsyncLock()
    /// When the last write transaction ended (`DispatchTime` uptime nanoseconds): the checkpoint
    /// thread waits for a quiet moment.
    let lastWrite = Locked<UInt64>(0)

    /// Batches the transactions of `writer`, the database's one writer connection.
    init(writer: SQLiteHandle, logger: Logger) {
        self.writer = writer
        self.logger = logger
    }

    /// How many writes wait for the next batch.
    var queued: Int { state.withLock { $0.queue.count } }

    /// How many transactions (batches) have begun.
    var transactions: Int { state.withLock { $0.transactions } }

    /// Waits for the batch running now and closes the writer connection.
    func close() async {
        await lock.lock()
        writer.close()
        lock.unlock()
    }

    /// Queues `body` and waits until the transaction that ran it has committed (its value) or
    /// rolled back (the error).
    func write<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = PendingWrite(body: body, continuation: continuation)
            let startDrain = state.withLock { state -> Bool in
                state.queue.append(job)
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if startDrain {
                Task { await self.drain() }
            }
        }
    }

    /// Runs batches until the queue is empty.
    private func drain() async {
        while true {
            let batch = state.withLock { state -> [any QueuedWrite] in
                let count = min(state.queue.count, Self.batchLimit)
                let batch = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
                if batch.isEmpty { state.draining = false } else { state.transactions += 1 }
                return batch
            }
            if batch.isEmpty { return }
            await run(batch)
        }
    }

    /// Runs one batch in one transaction: a savepoint per write when there are several, one
    /// commit, then every caller answered.
    private func run(_ batch: [any QueuedWrite]) async {
        await lock.lock()
        defer { lock.unlock() }
        let started = ContinuousClock.now
        defer { SlowStage.report("write batch", since: started, logger: logger, ["writes": "\(batch.count)"]) }
        let repositories = Repositories(sql: SQLiteHandleDatabase(handle: writer, logger: logger))
        defer { lastWrite.withLock { $0 = DispatchTime.now().uptimeNanoseconds } }
        do {
            try writer.execute("BEGIN IMMEDIATE")
        } catch {
            for write in batch { write.finish(commitError: error) }
            return
        }
        var succeeded = 0
        if batch.count == 1 {
            if await batch[0].run(repositories) { succeeded = 1 }
        } else {
            for write in batch {
                do {
                    try writer.execute("SAVEPOINT keyway_write")
                    if await write.run(repositories) {
                        succeeded += 1
                    } else {
                        try writer.execute("ROLLBACK TO keyway_write")
                    }
                    try writer.execute("RELEASE keyway_write")
                } catch {
                    // The savepoint itself failed: no write of this batch is kept.
                    _ = try? writer.execute("ROLLBACK")
                    for write in batch { write.finish(commitError: error) }
                    return
                }
            }
        }
        var commitError: (any Error)?
        do {
            try writer.execute(succeeded > 0 ? "COMMIT" : "ROLLBACK")
        } catch {
            commitError = error
            _ = try? writer.execute("ROLLBACK")
        }
        for write in batch { write.finish(commitError: commitError) }
    }
}

/// A queued write, its value type erased.
protocol QueuedWrite: Sendable {
    /// Runs the write; whether it succeeded (a failed one must be rolled back).
    func run(_ repositories: Repositories) async -> Bool
    /// Answers the caller once the batch has ended: with the write's own outcome, or with
    /// `commitError` when the commit that held a successful write failed.
    func finish(commitError: (any Error)?)
}

/// One caller's write and its continuation.
private final class PendingWrite<T: Sendable>: QueuedWrite, @unchecked Sendable {
    // `outcome` is set by `run` and read by `finish`, both called by the one drain task, in order.
    private let body: @Sendable (Repositories) async throws -> T
    private let continuation: CheckedContinuation<T, any Error>
    private var outcome: Result<T, any Error>?

    init(body: @escaping @Sendable (Repositories) async throws -> T, continuation: CheckedContinuation<T, any Error>) {
        self.body = body
        self.continuation = continuation
    }

    func run(_ repositories: Repositories) async -> Bool {
        do {
            outcome = .success(try await body(repositories))
            return true
        } catch {
            outcome = .failure(error)
            return false
        }
    }

    func finish(commitError: (any Error)?) {
        switch outcome {
        case .success(let value):
            if let commitError {
                continuation.resume(throwing: commitError)
            } else {
                continuation.resume(returning: value)
            }
        case .failure(let error):
            continuation.resume(throwing: error)
        case nil:
            continuation.resume(throwing: commitError ?? StorageError(description: "The write was never run."))
        }
    }
}
