import Foundation

/// One line of standard input read on its own thread, so that the CLI can wait for the flow
/// (a sign-in link approved on another device) while the user may still type. A read that is
/// still in flight when the flow moves on is taken over by the next question
/// (``Terminal/ask(_:)``), so no typed line is lost or read twice.
final class BackgroundLine: @unchecked Sendable {
    private let lock = NSLock()
    private var line: String?
    private var finished = false
    private var waiters: [CheckedContinuation<String?, Never>] = []
    private let done = DispatchSemaphore(value: 0)

    private static let pendingLock = NSLock()
    /// The read in flight or not yet answered, if any.
    nonisolated(unsafe) private static var pending: BackgroundLine?

    private init() {}

    /// The read in flight, or a new one started on its own thread.
    static func start() -> BackgroundLine {
        pendingLock.withLock {
            if let pending { return pending }
            let read = BackgroundLine()
            pending = read
            Thread.detachNewThread { read.finish(readLine(strippingNewline: true)) }
            return read
        }
    }

    /// Takes the read in flight (or finished but not answered) off, if there is one: its line is
    /// the answer of whoever took it.
    static func take() -> BackgroundLine? {
        pendingLock.withLock {
            defer { pending = nil }
            return pending
        }
    }

    private func finish(_ line: String?) {
        let waiting = lock.withLock {
            self.line = line
            finished = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume(returning: line) }
        done.signal()
    }

    /// The line once read; `nil` at end of input.
    func value() async -> String? {
        await withCheckedContinuation { continuation in
            let ready: (Bool, String?) = lock.withLock {
                if finished { return (true, line) }
                waiters.append(continuation)
                return (false, nil)
            }
            if ready.0 { continuation.resume(returning: ready.1) }
        }
    }

    /// The line, blocking until it is read; `nil` at end of input.
    func wait() -> String? {
        done.wait()
        done.signal()
        return lock.withLock { line }
    }
}
