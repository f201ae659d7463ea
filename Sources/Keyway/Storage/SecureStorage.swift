import Foundation

/// Where the SDK keeps secrets (tokens), by key. Apps may pass their own implementation, for
/// example storage shared with an app extension.
public protocol SecureStorage: Sendable {
    /// The data under `key`, or `nil` when there is none.
    ///
    /// - Parameter key: The entry's key.
    /// - Returns: The entry's data, or `nil`.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` when the storage cannot be used now;
    ///   ``SecureStorageError/unreadable(_:)`` when what it holds cannot be read back.
    func read(key: String) async throws(SecureStorageError) -> Data?
    /// Stores `data` under `key`, replacing what was there, atomically.
    ///
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - data: The entry's new data.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` when the storage cannot be used now (nothing
    ///   was changed); ``SecureStorageError/unreadable(_:)`` when what it holds cannot be read back.
    func write(key: String, data: Data) async throws(SecureStorageError)
    /// Removes `key`; removing a missing key succeeds.
    ///
    /// - Parameter key: The entry's key.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` when the storage cannot be used now;
    ///   ``SecureStorageError/unreadable(_:)`` when what it holds cannot be read back.
    func delete(key: String) async throws(SecureStorageError)
}

/// A storage several processes share (an app and its extension) can offer a lock that holds
/// across all of them; ``KeywaySession`` refreshes under it, so only one process refreshes and
/// the others read the result.
public protocol CrossProcessLocking: Sendable {
    /// Runs `body` while holding an exclusive lock that every process using this storage respects.
    ///
    /// - Parameter body: The work to do under the lock.
    /// - Returns: What `body` returns.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` when the lock cannot be taken, or what `body`
    ///   throws.
    func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}

/// A failure of a ``SecureStorage``.
public enum SecureStorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The storage cannot be used right now (for example a locked device). Nothing was changed,
    /// and nothing should be treated as signed out because of it.
    case unavailable(String)
    /// What is stored cannot be read back (wrong key, damaged data).
    case unreadable(String)

    /// A sentence saying what went wrong, with the detail the case carries.
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

    /// An empty storage that works.
    public init() {}

    /// The data under `key`, or `nil` when there is none.
    ///
    /// - Parameter key: The entry's key.
    /// - Returns: The entry's data, or `nil`.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` while ``setUnavailable(_:)`` holds a reason.
    public func read(key: String) async throws(SecureStorageError) -> Data? {
        if let unavailableReason { throw .unavailable(unavailableReason) }
        return entries[key]
    }

    /// Stores `data` under `key`, replacing what was there.
    ///
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - data: The entry's new data.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` while ``setUnavailable(_:)`` holds a reason.
    public func write(key: String, data: Data) async throws(SecureStorageError) {
        if let unavailableReason { throw .unavailable(unavailableReason) }
        entries[key] = data
    }

    /// Removes `key`; removing a missing key succeeds.
    ///
    /// - Parameter key: The entry's key.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` while ``setUnavailable(_:)`` holds a reason.
    public func delete(key: String) async throws(SecureStorageError) {
        if let unavailableReason { throw .unavailable(unavailableReason) }
        entries[key] = nil
    }

    /// The keys stored, sorted.
    ///
    /// - Returns: The keys, sorted.
    public func keys() -> [String] {
        entries.keys.sorted()
    }

    /// Makes the storage fail as a locked device would, or work again with `nil`.
    ///
    /// - Parameter reason: The reason every call then fails with, or `nil` to work again.
    public func setUnavailable(_ reason: String?) {
        unavailableReason = reason
    }
}
