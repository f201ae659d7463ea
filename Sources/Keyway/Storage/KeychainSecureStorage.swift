#if canImport(Security)
import Foundation
import Security

/// A ``SecureStorage`` in the Apple Keychain: one generic-password item per key, with the
/// storage's service name as `kSecAttrService` and the key as `kSecAttrAccount`.
///
/// - Items are readable only as the chosen ``Accessibility`` allows; by default after the device
///   has been unlocked once since it started, and never on another device (not in backups that
///   restore elsewhere, not synced with iCloud Keychain).
/// - An app and its extensions share the items when both use the same `accessGroup` (one of the
///   app's keychain access groups, for example `TEAMID.com.example.shared`).
/// - On macOS the items live in the login (file-based) keychain unless
///   `useDataProtectionKeychain` is `true`. The data protection keychain
///   (`kSecUseDataProtectionKeychain`) behaves as on iOS, but only for a signed app with a
///   keychain access group entitlement: without one, every call fails with OSStatus -34018
///   (`errSecMissingEntitlement`), which this storage reports as a missing entitlement — not as a
///   locked keychain. Command-line tools and `swift test` use the default, or
///   ``FileSecureStorage``. On iOS, tvOS, watchOS and visionOS there is only the data protection
///   keychain.
/// - A locked keychain (`errSecInteractionNotAllowed`) and every other Keychain failure throw
///   ``SecureStorageError/unavailable(_:)``; nothing was changed.
///
/// Keychain calls block, so they run off the caller's actor (these methods are `nonisolated`
/// and `async`).
public struct KeychainSecureStorage: SecureStorage {
    /// When the Keychain lets the items be read (`kSecAttrAccessible`).
    public enum Accessibility: Sendable, Equatable {
        /// After the first unlock since the device started, on this device only
        /// (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`). Background refreshes work.
        case afterFirstUnlockThisDeviceOnly
        /// After the first unlock since the device started; moves to a new device with an
        /// encrypted backup (`kSecAttrAccessibleAfterFirstUnlock`).
        case afterFirstUnlock
        /// Only while the device is unlocked, on this device only
        /// (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`).
        case whenUnlockedThisDeviceOnly
        /// Only while the device is unlocked; moves to a new device with an encrypted backup
        /// (`kSecAttrAccessibleWhenUnlocked`).
        case whenUnlocked
        /// Only while the device is unlocked and has a passcode, on this device only; the items
        /// are deleted when the passcode is removed (`kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`).
        case whenPasscodeSetThisDeviceOnly

        var attribute: CFString {
            switch self {
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
            case .whenUnlockedThisDeviceOnly: kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            case .whenUnlocked: kSecAttrAccessibleWhenUnlocked
            case .whenPasscodeSetThisDeviceOnly: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
            }
        }
    }

    /// The items' `kSecAttrService`.
    public let service: String
    /// The items' `kSecAttrAccessGroup`, or `nil` for the app's default access group.
    public let accessGroup: String?
    /// When the items can be read; applied to the items this storage adds (an item that already
    /// exists keeps the accessibility it was added with until it is deleted).
    public let accessibility: Accessibility
    /// macOS only: keep the items in the data protection keychain (needs a keychain access group
    /// entitlement; see the type's notes). Ignored elsewhere.
    public let useDataProtectionKeychain: Bool

    /// A storage of the items of `service`.
    ///
    /// - Parameters:
    ///   - service: the service name every item is stored under; separate SDK instances (or
    ///     projects) that must not share secrets use separate names.
    ///   - accessGroup: a keychain access group shared with an app extension, or `nil`.
    ///   - accessibility: when the items can be read.
    ///   - useDataProtectionKeychain: macOS only: use the data protection keychain (an entitled,
    ///     signed app); `false` uses the login keychain.
    public init(
        service: String = "dev.keyway",
        accessGroup: String? = nil,
        accessibility: Accessibility = .afterFirstUnlockThisDeviceOnly,
        useDataProtectionKeychain: Bool = false
    ) {
        self.service = service
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        self.useDataProtectionKeychain = useDataProtectionKeychain
    }

    /// The data of the item of `key`, or `nil` when there is none.
    ///
    /// - Parameter key: The item's account (`kSecAttrAccount`).
    /// - Returns: The item's data, or `nil`.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` for a locked keychain, a missing entitlement
    ///   or any other Keychain failure; ``SecureStorageError/unreadable(_:)`` for an item without data.
    public func read(key: String) async throws(SecureStorageError) -> Data? {
        var query = itemQuery(key: key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        switch status {
        case errSecSuccess:
            guard let data = result as? Data else {
                throw .unreadable("The keychain item \(key) holds no data.")
            }
            return data
        case errSecItemNotFound:
            return nil
        default:
            throw Self.failure(status, "reading \(key)")
        }
    }

    /// Stores `data` in the item of `key`: updates it, or adds it with this storage's
    /// ``accessibility``.
    ///
    /// - Parameters:
    ///   - key: The item's account (`kSecAttrAccount`).
    ///   - data: The item's new data.
    /// - Throws: ``SecureStorageError/unavailable(_:)`` for a locked keychain, a missing entitlement
    ///   or any other Keychain failure; nothing was changed.
    public func write(key: String, data: Data) async throws(SecureStorageError) {
        let query = itemQuery(key: key)
        let attributes: [String: Any] = [kSecValueData as String: data]
        var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            var item = query
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = accessibility.attribute
            status = SecItemAdd(item as CFDictionary, nil)
            if status == errSecDuplicateItem {
                // Another writer added the item between the update and the add.
                status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
            }
        }
        guard status == errSecSuccess else { throw Self.failure(status, "writing \(key)") }
    }

    /// Deletes the item of `key`; deleting a missing item succeeds.
    ///
    /// - Parameter key: The item's account (`kSecAttrAccount`).
    /// - Throws: ``SecureStorageError/unavailable(_:)`` for a locked keychain, a missing entitlement
    ///   or any other Keychain failure.
    public func delete(key: String) async throws(SecureStorageError) {
        let status = SecItemDelete(itemQuery(key: key) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Self.failure(status, "deleting \(key)")
        }
    }

    /// The attributes that identify the item of `key`.
    private func itemQuery(key: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: key,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        #if os(macOS)
        if useDataProtectionKeychain { query[kSecUseDataProtectionKeychain as String] = true }
        #endif
        return query
    }

    /// The error for a failed Keychain call: `operation` says what was being done.
    private static func failure(_ status: OSStatus, _ operation: String) -> SecureStorageError {
        if status == errSecInteractionNotAllowed {
            return .unavailable("The keychain is locked (\(operation), OSStatus \(status)); unlock the device and retry.")
        }
        if status == errSecMissingEntitlement {
            return .unavailable(
                "The app has no keychain access group entitlement (\(operation), OSStatus -34018): sign it with one, or do not use the data protection keychain.")
        }
        let message = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "no description"
        return .unavailable("The keychain refused \(operation) with OSStatus \(status): \(message).")
    }
}
#endif
