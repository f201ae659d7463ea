import Foundation

/// Fans events out to every `events` stream and to the delegate (held weakly).
final class EventBroadcaster: Sendable {
    private struct State {
        weak var delegate: (any KeywayEventDelegate)?
        weak var owner: KeywayClient?
        var continuations: [UUID: AsyncStream<KeywayEvent>.Continuation] = [:]
    }

    private let state = LockedState(State())
    private let clock: any KeywayClock

    init(clock: any KeywayClock) {
        self.clock = clock
    }

    /// The SDK instance handed to the delegate.
    var owner: KeywayClient? {
        get { state.withLock { $0.owner } }
        set { state.withLock { $0.owner = newValue } }
    }

    var delegate: (any KeywayEventDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// A new stream of the events emitted from now on.
    func stream() -> AsyncStream<KeywayEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: KeywayEvent.self, bufferingPolicy: .unbounded)
        state.withLock { $0.continuations[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    func emit(_ name: KeywayEvent.Name, _ data: [String: String] = [:]) {
        let event = KeywayEvent(name: name, data: data, date: clock.now())
        let (delegate, owner, continuations) = state.withLock { ($0.delegate, $0.owner, Array($0.continuations.values)) }
        for continuation in continuations { continuation.yield(event) }
        if let owner { delegate?.keyway(owner, didEmit: event) }
    }
}
