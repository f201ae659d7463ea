import Foundation

/// Where the SDK keeps secrets (tokens), by key. Apps may pass their own implementation, for
/// example storage shared with an app extension.
public protocol SecureStorage: Sendable {
    /// The data under `key`, or `nil` when there is none.
    func read(key: String) async throws(SecureStorageError) -> Data?
    /// Stores `data` under `key`, replacing what was there, atomically.
    func write(key: String, data: Data) async throws(SecureStorageError)
    /// Removes `key`; removing a missing key succeeds.
    func delete(key: String) async throws(SecureStorageError)
}

/// A storage several processes share (an app and its extension) can offer a lock that holds
/// across all of them; ``KeywaySession`` refreshes under it, so only one process refreshes and
/// the others read the result.
public protocol CrossProcessLocking: Sendable {
    /// Runs `body` while holding an exclusive lock that every process using this storage respects.
    func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}

/// A failure of a ``SecureStorage``.
public enum SecureStorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The storage cannot be used right now (for example a locked device). Nothing was changed,
    /// and nothing should be treated as signed out because of it.
    case unavailable(String)
    /// What is stored cannot be read back (wrong key, damaged data).
    case unreadable(String)

    public var description: String {
        switch self {
        case .unavailable(let why): "Secure storage is unavailable: \(why)"
        case .unreadable(let why): "Secure storage data is unreadable: \(why)"
        }
    }
}

/// A ``SecureStorage`` in memory, for tests and for apps that keep nothing across launches.
public actor InMemorySecureStorage: SecureStorage {
    private var entries: [String: Data] = [:]
    /// When set, every call fails with ``SecureStorageError/unavailable(_:)`` (to test that state).
    private var unavailableReason: String?

    public init() {}

    public func read(key: String) async throws(SecureStorageError) -> Data? {
        if let unavailableReason { throw .unavailable(unavailableReason) }
        return entries[key]
    }

    public func write(key: String, data: Data) async throws(SecureStorageError) {
        if let unavailableReason { throw .unavailable(unavailableReason) }
        entries[key] = data
    }

    public func delete(key: String) async throws(SecureStorageError) {
        if let unavailableReason { throw .unavailable(unavailableReason) }
        entries[key] = nil
    }

    /// The keys stored, sorted.
    public func keys() -> [String] {
        entries.keys.sorted()
    }

    /// Makes the storage fail as a locked device would, or work again with `nil`.
    public func setUnavailable(_ reason: String?) {
        unavailableReason = reason
    }
}
