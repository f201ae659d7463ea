import Foundation

/// A value guarded by a lock, for the few places where state is read synchronously from many
/// threads (the issuer learned at bind time). `@unchecked Sendable` is sound because every
/// access to `value` happens while `lock` is held.
final class Locked<Value: Sendable>: @unchecked Sendable {
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

    var current: Value { withLock { $0 } }
}
