#if canImport(CryptoKit) && canImport(Security) && (os(iOS) || os(macOS) || os(visionOS))
import Crypto
import CryptoKit
import Foundation
import KeywayJOSE
import LocalAuthentication
import Security

/// A ``DeviceKeyStore`` of Secure Enclave P-256 keys: the private keys are created inside the
/// Secure Enclave and never leave it; the store signs through them.
///
/// What a key's name maps to in the ``SecureStorage`` is the key's `dataRepresentation`: an
/// opaque handle that only this device's Secure Enclave can use, not the private key. Pass a
/// ``KeychainSecureStorage`` so the handles stay on the device. Deleting a handle makes its key
/// unusable for good.
///
/// Check ``isAvailable`` first (the Simulator and Macs without a Secure Enclave have none) and
/// fall back to ``SoftwareDeviceKeyStore``.
///
/// Keys with ``Protection/userPresence`` ask for Face ID, Touch ID or the passcode at each
/// signature, and a signature is a synchronous call: without an authentication context the
/// prompt holds the calling thread until the user answers. Give the store an
/// `authenticationContext` closure that returns an `LAContext` the app evaluated for the
/// operation at hand — a new one each time, invalidated when the operation is done: an evaluated
/// context lets every key that uses it sign without asking for as long as the context lives, so
/// one context kept for the store's life would stop `.userPresence` from ever asking again
/// (`touchIDAuthenticationAllowableReuseDuration` governs reusing the device's unlock, not
/// this). Face ID needs `NSFaceIDUsageDescription` in the app's `Info.plist`. Such keys suit
/// device proofs during an interactive sign-in, not DPoP: a token refresh in the background cannot
/// show a prompt, so a user-presence DPoP key fails there.
public struct SecureEnclaveDeviceKeyStore: DeviceKeyStore {
    /// When the Secure Enclave lets a key sign.
    public enum Protection: Sendable, Equatable {
        /// After the first unlock since the device started, without asking the user
        /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, `.privateKeyUsage`). Background
        /// token refreshes can sign.
        case afterFirstUnlock
        /// Only while the device is unlocked, without asking the user
        /// (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`, `.privateKeyUsage`).
        case whenUnlocked
        /// Only while the device is unlocked, and every signature asks the user for Face ID,
        /// Touch ID or the passcode (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`,
        /// `[.privateKeyUsage, .userPresence]`).
        case userPresence
    }

    /// Whether this device has a Secure Enclave this store can use.
    public static var isAvailable: Bool { CryptoKit.SecureEnclave.isAvailable }

    private let storage: any SecureStorage
    /// When new keys can sign; keys already created keep what they were created with.
    public let protection: Protection
    /// The context of each key loaded or created: asked for anew every time.
    private let context: (@Sendable () -> LAContext?)?

    /// Always `true`: the private keys live in the Secure Enclave.
    public var isHardwareBacked: Bool { true }

    /// A store that keeps its keys' handles in `storage`.
    ///
    /// - Parameters:
    ///   - storage: where the keys' handles are kept, by key name (for example a
    ///     ``KeychainSecureStorage``).
    ///   - protection: when keys created by this store can sign.
    ///   - authenticationContext: returns the `LAContext` the app evaluated for the operation at
    ///     hand, or `nil` to let the key prompt by itself; called each time a key is loaded or
    ///     created, so each operation gets a fresh context (see the type's notes on
    ///     ``Protection/userPresence``).
    public init(
        storage: any SecureStorage, protection: Protection = .afterFirstUnlock,
        authenticationContext: (@Sendable () -> LAContext?)? = nil
    ) {
        self.storage = storage
        self.protection = protection
        self.context = authenticationContext
    }

    /// The key whose handle is kept under `name`.
    ///
    /// - Parameter name: The key's name.
    /// - Returns: The key, or `nil` when the storage holds no handle of that name.
    /// - Throws: ``KeywayError/storageUnavailable(_:)`` when the storage cannot be read or the
    ///   Secure Enclave cannot use the handle.
    public func key(named name: String) async throws -> (any DeviceKey)? {
        let handle: Data?
        do {
            handle = try await storage.read(key: name)
        } catch {
            throw KeywayError.storageUnavailable(error.description)
        }
        guard let handle else { return nil }
        do {
            let key = try CryptoKit.SecureEnclave.P256.Signing.PrivateKey(
                dataRepresentation: handle, authenticationContext: context?())
            return try SecureEnclaveDeviceKey(key)
        } catch {
            throw KeywayError.storageUnavailable("The device key \(name) cannot be used: \(error).")
        }
    }

    /// Creates a new key in the Secure Enclave with this store's ``protection`` and keeps its handle
    /// under `name`, replacing any other.
    ///
    /// - Parameter name: The key's name.
    /// - Returns: The new key.
    /// - Throws: ``KeywayError/storageUnavailable(_:)`` when the access control or the key cannot be
    ///   created, or the storage cannot be written.
    public func createKey(named name: String) async throws -> any DeviceKey {
        let access = try accessControl()
        let deviceKey: SecureEnclaveDeviceKey
        let handle: Data
        do {
            let key = try CryptoKit.SecureEnclave.P256.Signing.PrivateKey(
                accessControl: access, authenticationContext: context?())
            deviceKey = try SecureEnclaveDeviceKey(key)
            handle = key.dataRepresentation
        } catch {
            throw KeywayError.storageUnavailable("The Secure Enclave cannot create a key: \(error).")
        }
        do {
            try await storage.write(key: name, data: handle)
        } catch {
            throw KeywayError.storageUnavailable(error.description)
        }
        return deviceKey
    }

    /// Deletes the handle kept under `name`, which makes its key unusable for good; deleting a
    /// missing key succeeds.
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

    /// The access control new keys are created with.
    private func accessControl() throws -> SecAccessControl {
        let accessible: CFString
        var flags: SecAccessControlCreateFlags = .privateKeyUsage
        switch protection {
        case .afterFirstUnlock:
            accessible = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenUnlocked:
            accessible = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .userPresence:
            accessible = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            flags.insert(.userPresence)
        }
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(nil, accessible, flags, &error) else {
            let reason = error.map { "\($0.takeRetainedValue())" } ?? "unknown error"
            throw KeywayError.storageUnavailable("The key's access control cannot be created: \(reason).")
        }
        return access
    }
}

/// A Secure Enclave key seen as a ``DeviceKey``. The public key and signatures are converted
/// through their raw bytes, so this compiles whether swift-crypto's `Crypto` module re-exports
/// CryptoKit (and the types are the same) or builds its own.
///
/// `@unchecked Sendable`: both stored values are immutable after `init`, and CryptoKit's key is a
/// value holding only the Secure Enclave handle.
private struct SecureEnclaveDeviceKey: DeviceKey, @unchecked Sendable {
    let key: CryptoKit.SecureEnclave.P256.Signing.PrivateKey
    let publicKey: Crypto.P256.Signing.PublicKey

    init(_ key: CryptoKit.SecureEnclave.P256.Signing.PrivateKey) throws {
        self.key = key
        publicKey = try Crypto.P256.Signing.PublicKey(x963Representation: key.publicKey.x963Representation)
    }

    func signature(for data: Data) throws -> Crypto.P256.Signing.ECDSASignature {
        let signature = try key.signature(for: data)
        return try Crypto.P256.Signing.ECDSASignature(rawRepresentation: signature.rawRepresentation)
    }
}
#endif
