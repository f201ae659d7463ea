/// An asynchronous lock: holders run one at a time, in the order they asked. The counter steps
/// of one activation run under it, so no two signatures share a counter value and each is
/// written before the next begins.
actor SerialLock {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` while holding the lock.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    private func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Hands the lock to the first waiter, or frees it.
    private func release() {
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// One lock per activation namespace in the process, shared by every ``DeviceActivation`` of it.
actor SerialLocks {
    static let shared = SerialLocks()
    private var locks: [String: SerialLock] = [:]

    func lock(for namespace: String) -> SerialLock {
        if let lock = locks[namespace] { return lock }
        let lock = SerialLock()
        locks[namespace] = lock
        return lock
    }
}
