import Crypto
import Foundation
import KeywayJOSE

/// A device-bound P-256 signing key: the SDK signs with it (DPoP proofs), and only its public
/// half ever leaves the store. `P256.Signing.PrivateKey` is one; a hardware-backed key can be
/// another.
public typealias DeviceKey = ES256SigningKey

/// Where device keys live, by name. Names are namespaced by the caller (see
/// ``DeviceKeyStore/dpopKeyName(appIdentifier:configID:)``) so that two apps, or two projects
/// of one app, never share a key.
public protocol DeviceKeyStore: Sendable {
    /// Whether the keys live in hardware the private key cannot leave (the Secure Enclave). The
    /// server records it, and sign-ins proven with such a key carry `hwk` in `amr` (`swk` otherwise).
    var isHardwareBacked: Bool { get }
    /// The key named `name`, or `nil` when there is none.
    ///
    /// - Parameter name: The key's name.
    /// - Returns: The key, or `nil` when there is none.
    /// - Throws: The store's error when it cannot be read or the key cannot be used
    ///   (``KeywayError/storageUnavailable(_:)`` for the SDK's stores).
    func key(named name: String) async throws -> (any DeviceKey)?
    /// Creates a new key named `name`, replacing any other.
    ///
    /// - Parameter name: The key's name.
    /// - Returns: The new key.
    /// - Throws: The store's error when the key cannot be created or kept
    ///   (``KeywayError/storageUnavailable(_:)`` for the SDK's stores).
    func createKey(named name: String) async throws -> any DeviceKey
    /// Deletes the key named `name`; deleting a missing key succeeds.
    ///
    /// - Parameter name: The key's name.
    /// - Throws: The store's error when it cannot be written
    ///   (``KeywayError/storageUnavailable(_:)`` for the SDK's stores).
    func deleteKey(named name: String) async throws
}

extension DeviceKeyStore {
    /// The key named `name`, created on first use.
    ///
    /// - Parameter name: The key's name.
    /// - Returns: The key named `name`, new or not.
    /// - Throws: What ``key(named:)`` and ``createKey(named:)`` throw.
    public func existingOrNewKey(named name: String) async throws -> any DeviceKey {
        if let key = try await key(named: name) { return key }
        return try await createKey(named: name)
    }

    /// The name of the key that proves a trusted device for one user of one app and project:
    /// `keyway.deviceKey.APP.CONFIG_ID.USER.trust`, where `USER` is a digest of the identifier the
    /// user signs in with.
    ///
    /// - Parameters:
    ///   - appIdentifier: The app's identifier (``DeviceTrustOptions/appIdentifier``).
    ///   - configID: The application's config ID.
    ///   - userKey: The digest of the user's identifier.
    /// - Returns: The key's name.
    package static func trustKeyName(appIdentifier: String, configID: String, userKey: String) -> String {
        "keyway.deviceKey.\(appIdentifier).\(configID).\(userKey).trust"
    }

    /// The name of an app's DPoP key for a project: `keyway.deviceKey.APP.CONFIG_ID.dpop`.
    ///
    /// - Parameters:
    ///   - appIdentifier: The app's identifier (its bundle identifier).
    ///   - configID: The application's config ID.
    /// - Returns: The key's name.
    public static func dpopKeyName(appIdentifier: String, configID: String) -> String {
        "keyway.deviceKey.\(appIdentifier).\(configID).dpop"
    }
}

/// A ``DeviceKeyStore`` of software P-256 keys (swift-crypto) kept in a ``SecureStorage``: the
/// private key is stored only there (encrypted, with ``FileSecureStorage``) and never handed out
/// except as a signing key. Where the Secure Enclave exists, a hardware store is preferable.
public actor SoftwareDeviceKeyStore: DeviceKeyStore {
    private let storage: any SecureStorage

    /// Always `false`: these keys are software keys.
    public nonisolated var isHardwareBacked: Bool { false }

    /// A store that keeps its keys in `storage`.
    ///
    /// - Parameter storage: Where the private keys are kept, by key name.
    public init(storage: any SecureStorage) {
        self.storage = storage
    }

    /// The key named `name`, read from the storage.
    ///
    /// - Parameter name: The key's name.
    /// - Returns: The key, or `nil` when the storage holds none of that name.
    /// - Throws: ``KeywayError/storageUnavailable(_:)`` when the storage cannot be read or the key
    ///   it holds is damaged.
    public func key(named name: String) async throws -> (any DeviceKey)? {
        let data: Data?
        do {
            data = try await storage.read(key: name)
        } catch {
            throw KeywayError.storageUnavailable(error.description)
        }
        guard let data else { return nil }
        do {
            return try P256.Signing.PrivateKey(rawRepresentation: data)
        } catch {
            throw KeywayError.storageUnavailable("The device key \(name) is damaged.")
        }
    }

    /// Creates a new software key named `name` and writes it to the storage, replacing any other.
    ///
    /// - Parameter name: The key's name.
    /// - Returns: The new key.
    /// - Throws: ``KeywayError/storageUnavailable(_:)`` when the storage cannot be written.
    public func createKey(named name: String) async throws -> any DeviceKey {
        let key = P256.Signing.PrivateKey()
        do {
            try await storage.write(key: name, data: key.rawRepresentation)
        } catch {
            throw KeywayError.storageUnavailable(error.description)
        }
        return key
    }

    /// Deletes the key named `name` from the storage; deleting a missing key succeeds.
    ///
    /// - Parameter name: The key's name.
    /// - Throws: ``KeywayError/storageUnavailable(_:)`` when the storage cannot be written.
    public func deleteKey(named name: String) async throws {
        do {
            try await storage.delete(key: name)
        } catch {
            throw KeywayError.storageUnavailable(error.description)
        }
    }
}
