import ServiceLifecycle

/// Connects ``KeywayServerApp/shutDown()`` to the service group that ``KeywayServerApp/run(onListening:)``
/// creates, whichever of the two comes first: a shutdown asked for before the group exists is
/// passed on as soon as it does, and the group then shuts down gracefully right after starting.
final class GracefulShutdownSwitch: Sendable {
    private struct State: Sendable {
        var group: ServiceGroup?
        var requested = false
    }

    private let state = Locked(State())

    /// Hands over the group that now runs the server.
    func attach(_ group: ServiceGroup) async {
        let requested = state.withLock { state -> Bool in
            state.group = group
            return state.requested
        }
        if requested { await group.triggerGracefulShutdown() }
    }

    /// Asks the running (or next) group to shut down gracefully.
    func trigger() async {
        let group = state.withLock { state -> ServiceGroup? in
            state.requested = true
            return state.group
        }
        await group?.triggerGracefulShutdown()
    }
}
