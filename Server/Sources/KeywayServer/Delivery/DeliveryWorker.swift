import Foundation
import Logging
import ServiceLifecycle

/// Delivers the outbox: claims due messages with a lease, hands each to the provider its
/// project and channel route to, and records the outcome — delivered (text wiped), failed (retried
/// with exponential backoff and jitter) or dead (after a permanent failure or `maxAttempts`).
///
/// A worker that crashes mid-send leaves its messages `sending` until their lease runs out; then
/// any worker claims them again. Two workers never hold one message at once, so a message is sent
/// twice only when an attempt outlives its lease (the lease is longer than any provider's
/// timeout) — receivers deduplicate on `Keyway-Idempotency-Key` for that case.
///
/// Runs as a service (polling every `pollInterval`, at once after ``wake()``); tests and the
/// flow engine can also drive it with ``deliverDue()``.
final class DeliveryWorker: Service, Sendable {
    private let database: any Database
    private let clock: any ServerClock
    private let routing: DeliveryRouting
    private let retryPolicy: DeliveryRetryPolicy
    private let logger: Logger
    private let signal = WakeSignal()
    /// Messages claimed per round.
    let batchSize: Int
    /// How long a claimed message is held; longer than any provider's timeout.
    let lease: TimeInterval
    /// How often the service looks for due messages when not woken.
    let pollInterval: Duration
    /// Counts delivered, retried and dead messages per channel.
    let metrics: ServerMetrics?
    /// The messages this worker's rounds claimed whose outcome is not recorded yet (ID → attempt).
    private let inFlight = Locked<[String: Int]>([:])

    init(
        database: any Database, clock: any ServerClock, routing: DeliveryRouting,
        retryPolicy: DeliveryRetryPolicy = DeliveryRetryPolicy(), batchSize: Int = 32, lease: TimeInterval = 60,
        pollInterval: Duration = .seconds(1), metrics: ServerMetrics? = nil, logger: Logger
    ) {
        self.metrics = metrics
        self.database = database
        self.clock = clock
        self.routing = routing
        self.retryPolicy = retryPolicy
        self.batchSize = max(1, batchSize)
        self.lease = lease
        self.pollInterval = pollInterval
        self.logger = logger
    }

    /// Delivers due messages until the task is cancelled or the server shuts down gracefully.
    /// On the way out, messages it claimed but could not record an outcome for are handed back
    /// at once (not after their lease), so another instance, or this one restarted, sends them.
    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    // A full batch suggests more are due.
                    while try await self.deliverDue() == self.batchSize, !Task.isCancelled {}
                } catch {
                    self.logger.warning("delivery round failed: \(String(describing: type(of: error)))")
                }
                await self.signal.wait(upTo: self.pollInterval)
            }
        }
        // A fresh task: this one is cancelled, and the database may refuse work for it.
        await Task { await self.releaseLeases() }.value
    }

    /// Hands back the messages this worker claimed and has no outcome for.
    func releaseLeases() async {
        let leftover = inFlight.withLock { $0 }
        guard !leftover.isEmpty else { return }
        let now = clock.now().epochMilliseconds
        do {
            try await database.write { repositories in
                for (id, attempt) in leftover {
                    try await repositories.deliveryOutbox.releaseLease(id: id, attempt: attempt, now: now)
                }
            }
            inFlight.withLock { state in for id in leftover.keys { state[id] = nil } }
            logger.notice("delivery leases released at shutdown", metadata: ["count": "\(leftover.count)"])
        } catch {
            logger.warning("delivery leases not released: \(String(describing: type(of: error)))")
        }
    }

    /// Whether the running service has finished a round and waits for the next (a wake, or the poll
    /// interval): what a test waits for before it checks that a wake starts a round.
    var isWaitingForWork: Bool { signal.hasWaiter }

    /// Asks the running service to look for due messages now (after an enqueue commits).
    func wake() {
        signal.fire()
    }

    /// Claims the messages due now (at most `batchSize`), makes one attempt at each, concurrently,
    /// and records the outcomes. Answers how many messages were attempted.
    @discardableResult
    func deliverDue() async throws -> Int {
        let now = clock.now().epochMilliseconds
        guard try await database.read({ try await $0.deliveryOutbox.hasDue(now: now) }) else { return 0 }
        let batchSize = self.batchSize
        let lease = Int64(self.lease * 1000)
        let claimed = try await database.write { repositories in
            try await repositories.deliveryOutbox.claimDue(now: now, limit: batchSize, lease: lease)
        }
        inFlight.withLock { state in for message in claimed { state[message.id] = message.attempt } }
        await withTaskGroup(of: Void.self) { group in
            for message in claimed {
                group.addTask { await self.attempt(message) }
            }
        }
        return claimed.count
    }

    /// Waits up to `timeout` for the first attempt at message `id` to finish (see
    /// ``DeliveryStatus/firstAttemptFinished``) and answers its status then — finished or not —
    /// or `nil` for an unknown message. Reads the database, so it also sees attempts made by
    /// other server processes.
    func awaitFirstAttempt(id: String, timeout: Duration) async throws -> DeliveryStatus? {
        try await awaitStatus(id: id, timeout: timeout) { $0.firstAttemptFinished }
    }

    /// Waits up to `timeout` for message `id` to be settled — delivered, or dead — while the
    /// worker retries it, and answers its status then, settled or not (`nil` for an unknown message).
    func awaitSettled(id: String, timeout: Duration) async throws -> DeliveryStatus? {
        try await awaitStatus(id: id, timeout: timeout) { $0.state == .delivered || $0.state == .dead }
    }

    private func awaitStatus(id: String, timeout: Duration, until done: (DeliveryStatus) -> Bool) async throws
        -> DeliveryStatus?
    {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            guard let status = try await database.read({ try await $0.deliveryOutbox.status(id: id) }) else {
                return nil
            }
            if done(status) || ContinuousClock.now >= deadline { return status }
            try await Task.sleep(until: min(deadline, ContinuousClock.now.advanced(by: .milliseconds(20))))
        }
    }

    /// Makes the first attempt at a message enqueued already claimed
    /// (``DeliveryOutboxRepository/enqueueClaimed(_:now:lease:)``), records its outcome like any
    /// attempt (a failure is retried later by the worker, or becomes a dead letter), and answers it.
    func attemptClaimed(_ message: DeliveryMessage) async -> DeliveryOutcome {
        await attempt(message)
    }

    /// How long a message enqueued claimed is held for its inline attempt, in milliseconds.
    var leaseMilliseconds: Int64 { Int64(lease * 1000) }

    @discardableResult
    private func attempt(_ message: DeliveryMessage) async -> DeliveryOutcome {
        let metadata: Logger.Metadata = [
            "delivery": "\(message.id)", "channel": "\(message.channel)", "attempt": "\(message.attempt)",
        ]
        let outcome: DeliveryOutcome
        if message.attempt > retryPolicy.maxAttempts {
            // Claimed again after its last attempt's sender vanished.
            outcome = .permanent("no result after \(retryPolicy.maxAttempts) attempts")
        } else if let provider = await routing.provider(message.projectId, message.channel) {
            outcome = await provider.deliver(message)
        } else {
            outcome = .permanent("no delivery provider for channel \(message.channel)")
        }
        let now = clock.now()
        var recorded = false
        do {
            switch outcome {
            case .delivered:
                try await database.write { repositories in
                    try await repositories.deliveryOutbox.markDelivered(id: message.id, now: now.epochMilliseconds)
                }
                logger.info("message delivered", metadata: metadata)
                metrics?.message(channel: message.channel.rawValue, outcome: "delivered")
            case .retryable(let reason) where message.attempt < retryPolicy.maxAttempts:
                let retryAt = now.addingTimeInterval(retryPolicy.delay(afterAttempt: message.attempt))
                try await database.write { repositories in
                    try await repositories.deliveryOutbox.markFailed(
                        id: message.id, attempt: message.attempt, error: reason,
                        retryAt: retryAt.epochMilliseconds, now: now.epochMilliseconds)
                }
                metrics?.message(channel: message.channel.rawValue, outcome: "retry")
                logger.warning(
                    "delivery failed, will retry",
                    metadata: metadata.merging(["reason": "\(reason)", "retryAt": "\(retryAt)"]) { $1 })
            case .retryable(let reason), .permanent(let reason):
                try await database.write { repositories in
                    try await repositories.deliveryOutbox.markDead(
                        id: message.id, attempt: message.attempt, error: reason, now: now.epochMilliseconds)
                }
                logger.error("delivery gave up", metadata: metadata.merging(["reason": "\(reason)"]) { $1 })
                metrics?.message(channel: message.channel.rawValue, outcome: "dead")
            }
            recorded = true
        } catch {
            // The lease runs out and the message is tried again.
            logger.warning(
                "delivery outcome not recorded",
                metadata: metadata.merging(["error": "\(String(describing: type(of: error)))"]) { $1 })
        }
        // A recorded outcome ends the hold; one that could not be recorded stays held, to be handed
        // back at shutdown (or when its lease runs out).
        if recorded { inFlight.withLock { $0[message.id] = nil } }
        return outcome
    }
}
