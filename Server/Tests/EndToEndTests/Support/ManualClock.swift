import Foundation
import Keyway
import KeywayServer

/// A clock tests move by hand, shared by the server and the SDK.
final class ManualClock: ServerClock, KeywayClock, @unchecked Sendable {
    // @unchecked: `current` is only touched under `lock`.
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date()) {
        current = start
    }

    func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(by seconds: TimeInterval) {
        lock.lock()
        current = current.addingTimeInterval(seconds)
        lock.unlock()
    }
}
