import Foundation
import Keyway
import KeywayServer

/// A clock tests move by hand, shared by the server and the SDK (unit tests use it for the
/// server alone).
public final class ManualClock: ServerClock, KeywayClock, @unchecked Sendable {
    // @unchecked: `current` is only touched under `lock`.
    private let lock = NSLock()
    private var current: Date

    /// A clock at `start` (now, by default).
    public init(_ start: Date = Date()) {
        current = start
    }

    public func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves the clock forward by `seconds`.
    public func advance(by seconds: TimeInterval) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }

    /// Moves the clock forward to the real time, when it is behind: before a peer that keeps real
    /// time (a Python provider) issues something the server checks against its own clock.
    public func catchUp() {
        lock.lock()
        current = max(current, Date())
        lock.unlock()
    }
}
