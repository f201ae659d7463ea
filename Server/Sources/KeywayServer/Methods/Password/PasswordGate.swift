import KeywayProtocol

/// Bounds the password hashing in progress or waiting at once. scrypt runs on a small thread pool
/// of its own; past `capacity` checks in progress or queued in all, or past `perNetwork` of them
/// from one client network, a request is refused at once with a `wait` answer (503,
/// `Retry-After`) instead of queueing behind everyone else's. So a flood of password attempts
/// cannot make every sign-in wait seconds, and one network flooding cannot take every place: a
/// check from elsewhere waits behind at most `capacity` hashes, and usually far fewer.
struct PasswordGate: Sendable {
    let capacity: Int
    let perNetwork: Int
    private struct Places: Sendable {
        var total = 0
        var byNetwork: [String: Int] = [:]
    }
    private let places = Locked(Places())

    init(capacity: Int, perNetwork: Int = 2) {
        self.capacity = max(1, capacity)
        self.perNetwork = max(1, perNetwork)
    }

    /// How many checks are in progress or waiting now.
    var inUse: Int { places.current.total }

    /// Runs `work` if a place is free for `network` (a client network's key, `nil` when unknown);
    /// throws ``FlowProblem/passwordChecksBusy`` otherwise.
    func withPlace<T: Sendable>(network: String?, _ work: () async throws -> T) async throws -> T {
        let capacity = self.capacity
        let perNetwork = self.perNetwork
        let entered = places.withLock { places -> Bool in
            guard places.total < capacity else { return false }
            if let network {
                guard places.byNetwork[network, default: 0] < perNetwork else { return false }
                places.byNetwork[network, default: 0] += 1
            }
            places.total += 1
            return true
        }
        guard entered else { throw FlowProblem.passwordChecksBusy }
        defer {
            places.withLock { places in
                places.total -= 1
                if let network {
                    let left = places.byNetwork[network, default: 1] - 1
                    places.byNetwork[network] = left > 0 ? left : nil
                }
            }
        }
        return try await work()
    }
}
