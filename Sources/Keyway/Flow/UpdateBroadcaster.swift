import Foundation

/// Fans each update out to `onUpdate` and to every `updates` stream, and remembers the latest.
final class UpdateBroadcaster: Sendable {
    private struct State {
        var current: FlowUpdate = .idle
        var handler: (@Sendable (FlowUpdate) -> Void)?
        var continuations: [UUID: AsyncStream<FlowUpdate>.Continuation] = [:]
    }

    private let state = LockedState(State())

    var current: FlowUpdate { state.withLock { $0.current } }

    var handler: (@Sendable (FlowUpdate) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// A new stream that starts with the current update and then yields every later one.
    func stream() -> AsyncStream<FlowUpdate> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: FlowUpdate.self, bufferingPolicy: .unbounded)
        state.withLock { state in
            continuation.yield(state.current)
            state.continuations[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func emit(_ update: FlowUpdate) {
        let (handler, continuations) = state.withLock { state in
            state.current = update
            return (state.handler, Array(state.continuations.values))
        }
        for continuation in continuations { continuation.yield(update) }
        handler?(update)
    }
}
