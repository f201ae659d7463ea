#if canImport(LocalAuthentication) && canImport(Security) && (os(iOS) || os(macOS))
    import Foundation
    import LocalAuthentication
    import Security

    /// ``Biometry`` on Apple platforms: the key is a Keychain generic password whose access control
    /// (`.biometryCurrentSet`, accessible only while a passcode is set, never leaving the device)
    /// lets only a biometric check of the currently enrolled fingers or face read it. Enrolling
    /// another finger or face makes the key unreadable (``BiometryError/keyMissing``): set up
    /// biometry again then.
    public struct LocalAuthenticationBiometry: Biometry {
        /// The Keychain service of the keys.
        public let service: String

        /// Biometry through LocalAuthentication and the Keychain.
        ///
        /// - Parameter service: The Keychain service the keys are stored under.
        public init(service: String = "dev.keyway.activation.biometry") {
            self.service = service
        }

        /// What `LAContext` says of `.deviceOwnerAuthenticationWithBiometrics` now.
        ///
        /// - Returns: The availability.
        public func availability() async -> BiometryAvailability {
            let context = LAContext()
            var error: NSError?
            if context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) {
                switch context.biometryType {
                case .touchID: return .available(.fingerprint)
                case .faceID: return .available(.face)
                case .opticID: return .available(.iris)
                case LABiometryType.none: return .notSupported
                @unknown default: return .available(.other)
                }
            }
            return Self.availability(of: error)
        }

        /// Stores the key as a generic password with biometric access control, replacing any
        /// item of the same account.
        ///
        /// - Parameters:
        ///   - key: The key.
        ///   - account: The item's account.
        /// - Throws: ``BiometryError/system(_:)`` when the Keychain refuses.
        public func storeKey(_ key: Data, account: String) async throws(BiometryError) {
            var accessError: Unmanaged<CFError>?
            guard let access = SecAccessControlCreateWithFlags(
                kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryCurrentSet, &accessError)
            else {
                let message = accessError.map { String(describing: $0.takeRetainedValue()) } ?? "no access control"
                throw .system(message)
            }
            let query = baseQuery(account: account)
            SecItemDelete(query as CFDictionary)
            var attributes = query
            attributes[kSecValueData as String] = key
            attributes[kSecAttrAccessControl as String] = access
            let status = SecItemAdd(attributes as CFDictionary, nil)
            guard status == errSecSuccess else { throw .system(Self.message(status)) }
        }

        /// Asks for the biometric check with `reason`, then reads the item with the context that
        /// passed it (no second prompt).
        ///
        /// - Parameters:
        ///   - account: The item's account.
        ///   - reason: The sentence the system shows.
        /// - Returns: The key.
        /// - Throws: ``BiometryError``.
        public func readKey(account: String, reason: String) async throws(BiometryError) -> Data {
            let context = LAContext()
            do {
                guard try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason) else {
                    throw BiometryError.notAuthenticated
                }
            } catch let error as BiometryError {
                throw error
            } catch {
                // Cancelled, failed, or asked for the passcode: the user did not pass.
                let error = error as NSError
                if Self.isUnavailable(error) { throw BiometryError.unavailable(Self.availability(of: error)) }
                throw BiometryError.notAuthenticated
            }
            var query = baseQuery(account: account)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            query[kSecUseAuthenticationContext as String] = context
            var item: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &item)
            switch status {
            case errSecSuccess:
                guard let data = item as? Data else { throw .system("The Keychain item holds no data.") }
                return data
            case errSecItemNotFound: throw .keyMissing
            case errSecUserCanceled, errSecAuthFailed: throw .notAuthenticated
            default: throw .system(Self.message(status))
            }
        }

        /// Deletes the item; a missing item is not an error.
        ///
        /// - Parameter account: The item's account.
        /// - Throws: ``BiometryError/system(_:)`` when the Keychain refuses.
        public func deleteKey(account: String) async throws(BiometryError) {
            let status = SecItemDelete(baseQuery(account: account) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw .system(Self.message(status)) }
        }

        /// The attributes that name an item (on macOS in the data protection keychain, the one
        /// that honours access control).
        private func baseQuery(account: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            #if os(macOS)
                query[kSecUseDataProtectionKeychain as String] = true
            #endif
            return query
        }

        /// What an `LAError` says of the availability (`.notSupported` for other errors).
        private static func availability(of error: NSError?) -> BiometryAvailability {
            guard let error, error.domain == LAErrorDomain, let code = LAError.Code(rawValue: error.code) else {
                return .notSupported
            }
            switch code {
            case .biometryNotEnrolled: return .notEnrolled
            case .biometryLockout: return .lockedOut
            default: return .notSupported
            }
        }

        /// Whether an `LAError` says biometry is missing, rather than that the user did not pass.
        private static func isUnavailable(_ error: NSError) -> Bool {
            guard error.domain == LAErrorDomain, let code = LAError.Code(rawValue: error.code) else { return false }
            return code == .biometryNotAvailable || code == .biometryNotEnrolled || code == .biometryLockout
        }

        private static func message(_ status: OSStatus) -> String {
            (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
        }
    }
#endif
