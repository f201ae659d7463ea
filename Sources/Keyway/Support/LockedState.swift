import Foundation

/// A value guarded by a lock, for state the public API reads synchronously (`onUpdate`,
/// the current update). `@unchecked Sendable` is sound: `value` is only touched under `lock`,
/// and only `Sendable` values go in and come out.
final class LockedState<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
