/// Wakes one waiting task early: ``fire()`` resumes the current ``wait(upTo:)``, or makes the
/// next one return at once. Fires that arrive while nobody waits collapse into one.
final class WakeSignal: Sendable {
    private struct State: Sendable {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// Resumes the waiting task, or the next one to wait.
    func fire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Whether a task is waiting now (it will be resumed by the next ``fire()``).
    var hasWaiter: Bool { state.withLock { $0.waiter != nil } }

    /// Returns after `duration`, when fired, or when the task is cancelled, whichever comes first.
    /// One task waits at a time.
    func wait(upTo duration: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: duration) }
            group.addTask { await self.next() }
            await group.next()
            group.cancelAll()
        }
    }

    private func next() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Checked under the lock: a cancellation that lands before the waiter is stored
                // is seen here, one that lands after finds the waiter in the handler.
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
