import KeywayProtocol

/// Bounds the password hashing in progress or waiting at once. scrypt runs on a small thread pool
/// of its own; past `capacity` checks in progress or queued, a request is refused at once with a
/// `wait` answer (503, `Retry-After`) instead of queueing behind everyone else's, so a flood of
/// password attempts cannot make every sign-in wait seconds.
struct PasswordGate: Sendable {
    let capacity: Int
    private let admitted = Locked(0)

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// How many checks are in progress or waiting now.
    var inUse: Int { admitted.current }

    /// Runs `work` if a place is free; throws ``FlowProblem/passwordChecksBusy`` otherwise.
    func withPlace<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        let capacity = self.capacity
        let entered = admitted.withLock { count -> Bool in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard entered else { throw FlowProblem.passwordChecksBusy }
        defer { admitted.withLock { $0 -= 1 } }
        return try await work()
    }
}
