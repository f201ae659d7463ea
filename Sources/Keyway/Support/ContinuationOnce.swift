import Foundation

/// A checked continuation resumed at most once, whichever of its resumers comes first: a system
/// callback, a failed start, a cancellation. A continuation resumed twice traps; one never
/// resumed leaks its task. The browser session resumes through it.
final class ContinuationOnce<Value: Sendable>: Sendable {
    private let continuation: LockedState<CheckedContinuation<Value, any Error>?>

    init(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation = LockedState(continuation)
    }

    /// Resumes the waiting task with `result` unless it was resumed already; answers whether this
    /// call did.
    @discardableResult
    func resume(with result: Result<Value, any Error>) -> Bool {
        let waiting = continuation.withLock { current -> CheckedContinuation<Value, any Error>? in
            defer { current = nil }
            return current
        }
        waiting?.resume(with: result)
        return waiting != nil
    }
}
