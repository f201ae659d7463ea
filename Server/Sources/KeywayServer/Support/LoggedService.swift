import Logging
import ServiceLifecycle

/// One part of a running server — a listener or a background service — that says in the log
/// when it stops during a shutdown, so that a stop that takes long shows which part it is waiting
/// for: the part never named as stopped, or named as cancelled. A part that can tell what keeps
/// it busy (a listener: the requests it is answering) says so when it has not stopped
/// ``patience`` after the shutdown reached it.
struct LoggedService: Service, CustomStringConvertible {
    /// What the log calls it ("the public listener", "the maintenance sweep").
    let name: String
    let base: any Service
    let logger: Logger
    /// What it is still busy with, one line each, asked once it has not stopped in time.
    var busyWith: (@Sendable () -> [String])?
    var patience: Duration = .seconds(5)

    var description: String { name }

    func run() async throws {
        let watch = Locked<Task<Void, Never>?>(nil)
        let asked = Locked<ContinuousClock.Instant?>(nil)
        defer { watch.withLock { $0?.cancel() } }
        do {
            try await withGracefulShutdownHandler {
                try await base.run()
            } onGracefulShutdown: { [name, logger, busyWith, patience] in
                asked.withLock { $0 = .now }
                guard let busyWith else { return }
                let task = Task {
                    try? await Task.sleep(for: patience)
                    guard !Task.isCancelled else { return }
                    let busy = busyWith()
                    guard !busy.isEmpty else { return }
                    logger.warning(
                        "\(name) has not stopped \(patience.components.seconds) s into the shutdown; still answering: \(busy.joined(separator: "; "))"
                    )
                }
                watch.withLock { $0 = task }
            }
        } catch {
            report(asked: asked.withLock { $0 })
            throw error
        }
        report(asked: asked.withLock { $0 })
    }

    /// Says how it stopped: by itself once asked, or cancelled — asked and not done in time, or
    /// still waiting for its turn (the parts stop one after the other; the group asks the next
    /// one as it cancels them all) when time ran out.
    private func report(asked: ContinuousClock.Instant?) {
        if Task.isCancelled {
            if let asked, ContinuousClock.now - asked > .seconds(1) {
                let waited = (ContinuousClock.now - asked).components.seconds
                logger.warning("cancelled: \(name) had not stopped by itself \(waited) s after it was asked")
            } else {
                logger.warning("cancelled: \(name) was still waiting for its turn to stop")
            }
        } else if Task.isShuttingDownGracefully {
            logger.info("stopped: \(name)")
        }
    }
}
