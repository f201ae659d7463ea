import Crypto
import Foundation

/// A ``SecureStorage`` in one AES-256-GCM–encrypted file per namespace, for Linux, servers and
/// the CLI.
///
/// - The file holds a 4-byte magic (`KWS1`), a 1-byte key version, then the AES-GCM sealed box
///   (nonce, ciphertext, tag) of the namespace's entries as JSON.
/// - Every write re-encrypts the whole namespace into a temporary file in the same folder,
///   flushes it to disk and renames it over the old file, so a crash leaves either the old or the
///   new file, never a torn one. The next write removes a temporary file a crash left behind.
/// - A wrong key, a different key version or a damaged file fails closed with
///   ``SecureStorageError/unreadable(_:)``; nothing is overwritten.
///
/// Processes sharing the folder (an app and its extension, several CLI runs) are coordinated with
/// `flock(2)`: each read-modify-write holds `NAMESPACE.lock` for its few milliseconds, and
/// ``withExclusiveLock(_:)`` holds `NAMESPACE.session.lock` for as long as a token refresh takes.
public actor FileSecureStorage: SecureStorage, CrossProcessLocking {
    /// Where the encryption key comes from.
    public enum KeySource: Sendable {
        /// A 32-byte key file, created with mode `0600` on first use. Refused when other users can
        /// read it.
        case keyFile(URL)
        /// A key the app supplies (for example from its platform keystore), with its version.
        case key(SymmetricKey, version: UInt8)
    }

    private static let magic: [UInt8] = Array("KWS1".utf8)

    /// The encrypted file.
    public nonisolated let fileURL: URL
    private let keySource: KeySource
    private var resolvedKey: (key: SymmetricKey, version: UInt8)?

    /// A storage in the file `NAMESPACE.kwstore` of `directory`. Nothing is read or created until
    /// the first call.
    ///
    /// - Parameters:
    ///   - directory: the folder of the file; created with mode `0700` when missing.
    ///   - namespace: the file's name: 1 to 100 characters of `A-Z a-z 0-9 . _ -`, not starting with `.`.
    ///   - keySource: where the encryption key comes from.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` for a namespace that is not such a name.
    public init(directory: URL, namespace: String, keySource: KeySource) throws(SecureStorageError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard (1...100).contains(namespace.count), namespace.allSatisfy(allowed.contains), !namespace.hasPrefix(".")
        else { throw .unavailable("The namespace \"\(namespace)\" is not a valid file name.") }
        fileURL = directory.appendingPathComponent("\(namespace).kwstore")
        self.keySource = keySource
    }

    /// The data under `key`, or `nil` when there is none (or no file yet).
    ///
    /// - Parameter key: The entry's key.
    /// - Returns: The entry's data, or `nil`.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` when the file or the key file cannot be read;
    ///   ``SecureStorageError/unreadable(_:)`` for a wrong key, another key version or a damaged file.
    public func read(key: String) async throws(SecureStorageError) -> Data? {
        try load()[key]
    }

    /// Stores `data` under `key`, replacing what was there, and writes the whole file again.
    ///
    /// - Parameters:
    ///   - key: The entry's key.
    ///   - data: The entry's new data.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` when the folder, the lock or the file cannot
    ///   be used; ``SecureStorageError/unreadable(_:)`` when the existing file cannot be read back
    ///   (it is not overwritten).
    public func write(key: String, data: Data) async throws(SecureStorageError) {
        try withFileLock { () throws(SecureStorageError) in
            var entries = try load()
            entries[key] = data
            try save(entries)
        }
    }

    /// Removes `key`, writing the file again only when the key was there.
    ///
    /// - Parameter key: The entry's key.
    /// - Throws: What ``write(key:data:)`` throws.
    public func delete(key: String) async throws(SecureStorageError) {
        try withFileLock { () throws(SecureStorageError) in
            var entries = try load()
            guard entries.removeValue(forKey: key) != nil else { return }
            try save(entries)
        }
    }

    // MARK: Locks

    /// Holds `NAMESPACE.session.lock` while `body` runs. Each call opens its own descriptor, so
    /// callers exclude each other whether they are in this process or another. Waits up to 30
    /// seconds, then throws ``SecureStorageError/unavailable(_:)``.
    ///
    /// - Parameter body: The work to do under the lock.
    /// - Returns: What `body` returns.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` when the lock file cannot be opened or the
    ///   wait times out, `CancellationError` when the task is cancelled while waiting, or what
    ///   `body` throws.
    public nonisolated func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let path = fileURL.deletingPathExtension().path + ".session.lock"
        try Self.ensureDirectory(fileURL.deletingLastPathComponent())
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw SecureStorageError.unavailable("\(path) cannot be opened.") }
        defer {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard ContinuousClock.now < deadline else {
                throw SecureStorageError.unavailable("Timed out waiting for \(path).")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        return try await body()
    }

    /// Holds `NAMESPACE.lock` around a read-modify-write of the file (milliseconds).
    private func withFileLock(_ body: () throws(SecureStorageError) -> Void) throws(SecureStorageError) {
        try Self.ensureDirectory(fileURL.deletingLastPathComponent())
        let path = fileURL.deletingPathExtension().path + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw .unavailable("\(path) cannot be opened.") }
        defer {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        guard flock(descriptor, LOCK_EX) == 0 else { throw .unavailable("\(path) cannot be locked.") }
        try body()
    }

    // MARK: File

    private func load() throws(SecureStorageError) -> [String: Data] {
        let contents: Data
        do {
            contents = try Data(contentsOf: fileURL)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return [:]
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return [:] }
            throw .unavailable("\(fileURL.path) cannot be read.")
        }
        let (key, version) = try resolveKey()
        let bytes = [UInt8](contents)
        guard bytes.count > 5, Array(bytes[0..<4]) == Self.magic else {
            throw .unreadable("\(fileURL.lastPathComponent) is not a Keyway secure storage file.")
        }
        guard bytes[4] == version else {
            throw .unreadable(
                "\(fileURL.lastPathComponent) was written with key version \(bytes[4]); this key is version \(version).")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: Data(bytes[5...]))
            let plaintext = try AES.GCM.open(box, using: key, authenticating: Data(bytes[0..<5]))
            return try JSONDecoder().decode([String: Data].self, from: plaintext)
        } catch {
            throw .unreadable("\(fileURL.lastPathComponent) cannot be decrypted: wrong key or damaged file.")
        }
    }

    private func save(_ entries: [String: Data]) throws(SecureStorageError) {
        let (key, version) = try resolveKey()
        let header = Data(Self.magic + [version])
        let sealed: Data
        do {
            let plaintext = try JSONEncoder().encode(entries)
            guard let combined = try AES.GCM.seal(plaintext, using: key, authenticating: header).combined else {
                throw SecureStorageError.unavailable("Encryption failed.")
            }
            sealed = header + combined
        } catch {
            throw .unavailable("The entries could not be encrypted.")
        }
        let directory = fileURL.deletingLastPathComponent()
        try Self.ensureDirectory(directory)
        // Writers hold the namespace's lock, so any temporary file of this namespace is what an
        // interrupted write left behind.
        let prefix = ".\(fileURL.lastPathComponent)."
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        let temporary = directory.appendingPathComponent("\(prefix)\(UUID().uuidString).tmp")
        guard Self.writeDurably(sealed, to: temporary.path) else {
            try? FileManager.default.removeItem(at: temporary)
            throw .unavailable("\(temporary.path) cannot be written.")
        }
        guard rename(temporary.path, fileURL.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw .unavailable("\(fileURL.path) cannot be replaced.")
        }
    }

    /// Writes with mode 0600 and flushes to disk before returning.
    private static func writeDurably(_ data: Data, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if result <= 0 { return false }
                offset += result
            }
            return true
        }
        return written && fsync(descriptor) == 0
    }

    private static func ensureDirectory(_ directory: URL) throws(SecureStorageError) {
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unavailable("\(directory.path) cannot be created.")
        }
    }

    // MARK: Key

    private func resolveKey() throws(SecureStorageError) -> (SymmetricKey, UInt8) {
        if let resolvedKey { return resolvedKey }
        let resolved: (key: SymmetricKey, version: UInt8)
        switch keySource {
        case .key(let key, let version):
            guard key.bitCount == 256 else { throw .unavailable("The storage key must be 256 bits.") }
            resolved = (key, version)
        case .keyFile(let url):
            resolved = (try Self.loadOrCreateKeyFile(url), 1)
        }
        resolvedKey = resolved
        return resolved
    }

    private static func loadOrCreateKeyFile(_ url: URL) throws(SecureStorageError) -> SymmetricKey {
        let path = url.path
        if !FileManager.default.fileExists(atPath: path) {
            try ensureDirectory(url.deletingLastPathComponent())
            let key = SymmetricKey(size: .bits256)
            let bytes = key.withUnsafeBytes { Data($0) }
            // O_EXCL: if another process created it meanwhile, read theirs below.
            _ = writeDurably(bytes, to: path)
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unavailable("The key file \(path) cannot be read.") }
        guard status.st_mode & 0o077 == 0 else {
            throw .unavailable("The key file \(path) is readable by other users; make it mode 0600.")
        }
        guard let data = FileManager.default.contents(atPath: path), data.count == 32 else {
            throw .unreadable("The key file \(path) does not hold a 32-byte key.")
        }
        return SymmetricKey(data: data)
    }
}
