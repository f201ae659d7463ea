import Foundation

/// The observable ``KeywayState`` of a ``KeywaySession``, three ways: a ``snapshot``, streams
/// that emit only when a selected part changes (``subscribe(_:)``), and ``KeywayStateModel`` for
/// SwiftUI.
public final class KeywayStateStore: Sendable {
    private struct Subscriber {
        let deliver: @Sendable (KeywayState) -> Void
    }

    private struct Stored {
        var state = KeywayState(auth: AuthState(isLoading: true))
        var accessTokenExpiresAt: Date?
        var subscribers: [UUID: Subscriber] = [:]
        var expiryTask: Task<Void, Never>?
    }

    private let stored = LockedState(Stored())
    private let clock: any KeywayClock

    init(clock: any KeywayClock) {
        self.clock = clock
    }

    /// The state now. ``AuthState/isAccessTokenValid`` is computed against the clock at each read.
    public var snapshot: KeywayState {
        stored.withLock { stored in
            var state = stored.state
            state.auth.isAccessTokenValid = Self.isValid(stored.accessTokenExpiresAt, now: clock.now())
            return state
        }
    }

    /// A stream of the part of the state `selector` picks: the current value first, then each
    /// new value when (and only when) it differs from the last one emitted.
    ///
    /// ```swift
    /// for await auth in session.state.subscribe({ $0.auth }) { … }
    /// ```
    ///
    /// The stream does not finish by itself; stop iterating (or cancel the task) to end it.
    ///
    /// - Parameter selector: Picks the part of the state to follow.
    /// - Returns: A new stream of the selected part.
    public func subscribe<Value: Equatable & Sendable>(
        _ selector: @escaping @Sendable (KeywayState) -> Value
    ) -> AsyncStream<Value> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .unbounded)
        let last = LockedState<Value?>(nil)
        let subscriber = Subscriber { state in
            let value = selector(state)
            let changed = last.withLock { previous -> Bool in
                guard previous != value else { return false }
                previous = value
                return true
            }
            if changed { continuation.yield(value) }
        }
        stored.withLock { stored in
            stored.subscribers[id] = subscriber
            subscriber.deliver(stored.state)
        }
        continuation.onTermination = { [weak self] _ in
            self?.stored.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// How many subscriptions are open (a finished or cancelled one is removed).
    var subscriberCount: Int { stored.withLock { $0.subscribers.count } }

    /// Replaces the state (from the session) and tells subscribers whose selection changed.
    func publish(_ state: KeywayState, accessTokenExpiresAt: Date?) {
        let now = clock.now()
        stored.withLock { stored in
            var state = state
            state.auth.isAccessTokenValid = Self.isValid(accessTokenExpiresAt, now: now)
            stored.state = state
            stored.accessTokenExpiresAt = accessTokenExpiresAt
            stored.expiryTask?.cancel()
            stored.expiryTask = nil
            if let expiresAt = accessTokenExpiresAt, state.auth.isAccessTokenValid {
                // Tell subscribers when the access token expires.
                let delay = expiresAt.timeIntervalSince(now)
                stored.expiryTask = Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(Int64(delay * 1000) + 1))
                    guard !Task.isCancelled else { return }
                    self?.expire()
                }
            }
            for subscriber in stored.subscribers.values { subscriber.deliver(state) }
        }
    }

    /// Updates the loading flag only.
    func setLoading(_ loading: Bool) {
        stored.withLock { stored in
            stored.state.auth.isLoading = loading
            for subscriber in stored.subscribers.values { subscriber.deliver(stored.state) }
        }
    }

    /// Marks the storage unavailable, keeping the last known state otherwise.
    func setStorageUnavailable(loading: Bool) {
        stored.withLock { stored in
            stored.state.auth.isLoading = loading
            stored.state.auth.isStorageUnavailable = true
            for subscriber in stored.subscribers.values { subscriber.deliver(stored.state) }
        }
    }

    private func expire() {
        let now = clock.now()
        stored.withLock { stored in
            let valid = Self.isValid(stored.accessTokenExpiresAt, now: now)
            guard stored.state.auth.isAccessTokenValid != valid else { return }
            stored.state.auth.isAccessTokenValid = valid
            for subscriber in stored.subscribers.values { subscriber.deliver(stored.state) }
        }
    }

    private static func isValid(_ expiresAt: Date?, now: Date) -> Bool {
        guard let expiresAt else { return false }
        return now < expiresAt
    }
}
