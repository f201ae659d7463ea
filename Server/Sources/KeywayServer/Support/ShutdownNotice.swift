import Logging
import ServiceLifecycle

/// The first service to hear of a graceful shutdown (the last in the group: services stop in
/// reverse order): it says in the log that the server is stopping, and how long the rest may take
/// before they are cancelled, so that a stop that takes long shows where it began.
struct ShutdownNotice: Service {
    let logger: Logger
    let limit: Duration

    func run() async {
        // Returns when the group shuts down gracefully; throws when it is cancelled instead,
        // which needs no notice.
        do { try await gracefulShutdown() } catch { return }
        logger.notice(
            "stopping: no new connections; requests in progress and the background services have \(limit.components.seconds) s before they are cancelled"
        )
    }
}
