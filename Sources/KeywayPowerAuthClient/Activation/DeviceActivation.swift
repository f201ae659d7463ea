import Crypto
import Foundation

/// A device's PowerAuth activation for one application: the key exchange, the local commit
/// with a password (and biometry), the status, online and offline signatures, password and
/// biometry changes, and removal. Make one per app identifier and configuration; instances of
/// the same app and configuration in one process share one counter lock.
///
/// ```swift
/// let activation = DeviceActivation(configuration: configuration, appIdentifier: "com.example.bank", storage: storage)
/// let pending = try await activation.create(with: .typedCode("VVVVV-VVVVV-VVVVV-VTFVA"), name: "Ada's phone")
/// print("Check that the server shows \(pending.fingerprint)")
/// try await activation.commit(password: "1234")
/// let header = try await activation.sign(method: "POST", uriID: "/payments/pay", body: body, with: .password("1234"))
/// ```
///
/// Everything is kept in the ``SecureStorage`` as one entry per app and configuration
/// (`keyway.activation.APP.CONFIG_ID.record`): the derived possession and transport keys, the
/// knowledge key encrypted under a PBKDF2 key of the password (a wrong password decrypts to a
/// wrong key, which only the server can tell), the device private key encrypted under the vault
/// key the server holds, and the counter. Every counter step is written before its signature is
/// returned, under a lock, so concurrent calls never share a counter value.
public actor DeviceActivation {
    /// The application's configuration.
    public nonisolated let configuration: PowerAuthConfiguration
    /// The app's identifier, part of the storage names.
    public nonisolated let appIdentifier: String
    let options: DeviceActivationOptions
    let store: ActivationStore
    let http: PowerAuthHTTP

    /// An activation of the app for the configuration's application.
    ///
    /// - Parameters:
    ///   - configuration: The server and the application's credentials.
    ///   - appIdentifier: The app's identifier (a bundle ID), so that two apps sharing a storage
    ///     never share an activation.
    ///   - storage: Where the activation is kept (the Keychain, or an encrypted file).
    ///   - options: The seams and device details.
    public init(
        configuration: PowerAuthConfiguration, appIdentifier: String, storage: any SecureStorage,
        options: DeviceActivationOptions = DeviceActivationOptions()
    ) {
        self.configuration = configuration
        self.appIdentifier = appIdentifier
        self.options = options
        self.store = ActivationStore(storage: storage, appIdentifier: appIdentifier, configID: configuration.configID)
        self.http = PowerAuthHTTP(configuration: configuration, options: options)
    }

    /// The name the biometry key is stored under for `activationID`.
    ///
    /// - Parameter activationID: The activation's ID.
    /// - Returns: `keyway.activation.APP.CONFIG_ID.ACTIVATION_ID.biometry`.
    public nonisolated func biometryAccount(activationID: String) -> String {
        store.biometryAccount(activationID: activationID)
    }

    /// What the device holds for this application, read from storage.
    ///
    /// - Returns: None, pending its commit, or active.
    /// - Throws: ``ActivationError/storage(_:)``.
    public func state() async throws(ActivationError) -> LocalActivationState {
        guard let record = try await store.read() else { return .none }
        if record.isCommitted {
            return .active(activationID: record.activationID, fingerprint: record.fingerprint, hasBiometry: record.hasBiometry)
        }
        return .pendingCommit(activationID: record.activationID, fingerprint: record.fingerprint)
    }

    /// The activation's ID, or `nil` when there is none.
    ///
    /// - Returns: The ID.
    /// - Throws: ``ActivationError/storage(_:)``.
    public func activationID() async throws(ActivationError) -> String? {
        try await store.read()?.activationID
    }

    // MARK: Under the lock

    /// Reads the record, lets `body` change it, and writes it back, under the namespace's lock
    /// (and the storage's cross-process lock when it has one). `expectedID` guards against an
    /// activation replaced meanwhile.
    func update<T: Sendable>(
        expectedID: String?, _ body: @escaping @Sendable (inout ActivationRecord) throws(ActivationError) -> T
    ) async throws(ActivationError) -> T {
        let store = self.store
        let work: @Sendable () async throws -> T = {
            guard var record = try await store.read() else { throw ActivationError.noActivation }
            if let expectedID, record.activationID != expectedID { throw ActivationError.noActivation }
            let result = try body(&record)
            try await store.write(record)
            return result
        }
        return try await locked(work)
    }

    /// Runs `work` under the namespace's lock (and the storage's cross-process lock).
    func locked<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws(ActivationError) -> T {
        let lock = await SerialLocks.shared.lock(for: store.namespace)
        do {
            if let crossProcess = store.storage as? any CrossProcessLocking {
                return try await lock.run { try await crossProcess.withExclusiveLock(work) }
            }
            return try await lock.run(work)
        } catch let error as ActivationError {
            throw error
        } catch let error as SecureStorageError {
            throw .storage(error)
        } catch {
            throw .storage(.unavailable(String(describing: error)))
        }
    }

    /// The record, which must exist.
    func existingRecord() async throws(ActivationError) -> ActivationRecord {
        guard let record = try await store.read() else { throw .noActivation }
        return record
    }

    /// The record, which must be committed.
    func committedRecord() async throws(ActivationError) -> ActivationRecord {
        let record = try await existingRecord()
        guard record.isCommitted else { throw .notCommitted }
        return record
    }

    /// The server's public key of the record as a verification key.
    static func serverSigningKey(_ record: ActivationRecord) throws(ActivationError) -> P256.Signing.PublicKey {
        do {
            return try ActivationSignature.publicKey(record.serverPublicKey)
        } catch {
            throw .storage(.unreadable("The stored server public key is not a P-256 key."))
        }
    }

    /// Milliseconds since 1970 by the clock seam.
    var nowMilliseconds: UInt64 { UInt64(max(options.clock.now().timeIntervalSince1970, 0) * 1000) }
}
