import Foundation

/// A value guarded by a lock, for state the public API reads synchronously (`onUpdate`,
/// the current update). `@unchecked Sendable` is sound: `value` is only touched under `lock`.
final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
