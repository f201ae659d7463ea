/// A non-reentrant lock for async code.
///
/// Taking a free lock does not suspend, and releasing it wakes one waiter to try again rather
/// than handing the lock over: a handed-over lock would stay held, idle, until the waiter's task
/// is scheduled, and every other task would queue behind it. A task that finds the lock free
/// takes it at once, so work whose critical section never suspends (a database transaction of
/// synchronous statements) runs back to back.
final class AsyncLock: Sendable {
    private struct State: Sendable {
        var isLocked = false
        var waiters: [CheckedContinuation<Bool, Never>] = []
    }

    private let state = Locked(State())

    /// Waits until the lock is taken by this task.
    func lock() async {
        if tryLock() { return }
        // A woken waiter that loses the race waits again at the head of the queue, not the tail.
        var wasWoken = false
        while true {
            let acquired = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let acquired = state.withLock { state -> Bool in
                    if !state.isLocked {
                        state.isLocked = true
                        return true
                    }
                    if wasWoken {
                        state.waiters.insert(continuation, at: 0)
                    } else {
                        state.waiters.append(continuation)
                    }
                    return false
                }
                if acquired { continuation.resume(returning: true) }
            }
            if acquired || tryLock() { return }
            wasWoken = true
        }
    }

    /// Takes the lock if it is free.
    func tryLock() -> Bool {
        state.withLock { state in
            guard !state.isLocked else { return false }
            state.isLocked = true
            return true
        }
    }

    /// Releases the lock and wakes the longest waiter to try again.
    func unlock() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.isLocked = false
            return state.waiters.isEmpty ? nil : state.waiters.removeFirst()
        }
        next?.resume(returning: false)
    }

    /// Runs `body` while holding the lock.
    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await lock()
        defer { unlock() }
        return try await body()
    }
}
