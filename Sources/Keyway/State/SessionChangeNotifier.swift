import Foundation

/// Tells every ``KeywaySession`` of this process that shares a storage (the same object, or the
/// same ``FileSecureStorage`` file) and config ID that one of them changed what is stored, so
/// their states stay consistent without polling.
final class SessionChangeNotifier: Sendable {
    static let shared = SessionChangeNotifier()

    private let listeners = LockedState<[String: [UUID: @Sendable () -> Void]]>([:])

    /// A key naming the storage a session uses, or `nil` when it has no stable identity (a value
    /// type).
    static func channel(storage: any SecureStorage, configId: String) -> String? {
        if let file = storage as? FileSecureStorage {
            return "file:\(file.fileURL.standardizedFileURL.path)|\(configId)"
        }
        if type(of: storage) is AnyClass {
            return "object:\(ObjectIdentifier(storage as AnyObject).hashValue)|\(configId)"
        }
        return nil
    }

    func register(channel: String, id: UUID, _ listener: @escaping @Sendable () -> Void) {
        listeners.withLock { $0[channel, default: [:]][id] = listener }
    }

    func unregister(channel: String, id: UUID) {
        listeners.withLock { listeners in
            listeners[channel]?[id] = nil
            if listeners[channel]?.isEmpty == true { listeners[channel] = nil }
        }
    }

    /// Calls every listener of `channel` but the sender's.
    func post(channel: String, from sender: UUID) {
        let targets = listeners.withLock { listeners in
            (listeners[channel] ?? [:]).filter { $0.key != sender }.map(\.value)
        }
        for target in targets { target() }
    }
}
