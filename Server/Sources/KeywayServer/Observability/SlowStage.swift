import Logging

/// A warning for a stage of the server's work that held others up: a write batch, a WAL
/// checkpoint, a maintenance sweep that took longer than ``threshold``. Request latency at
/// ordinary load is set by such stalls, not by the average; the warning names the stage and how
/// long it took, so a latency spike can be matched to its cause in the log.
enum SlowStage {
    /// How long a stage may take before it is logged.
    static let threshold: Duration = .milliseconds(20)

    /// Logs a warning when the stage that began at `started` took longer than ``threshold``.
    static func report(
        _ stage: String, since started: ContinuousClock.Instant, logger: Logger, _ metadata: Logger.Metadata = [:]
    ) {
        let elapsed = ContinuousClock.now - started
        guard elapsed > threshold else { return }
        var metadata = metadata
        metadata["ms"] = "\(elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000)"
        logger.warning("slow \(stage)", metadata: metadata)
    }
}
