import Foundation

/// What biometric authentication the device offers now.
public enum BiometryAvailability: Sendable, Equatable {
    /// Biometry can be used; the kind of sensor.
    case available(BiometryKind)
    /// The device has a sensor but no finger or face enrolled.
    case notEnrolled
    /// Too many failed attempts: the device passcode unlocks it again.
    case lockedOut
    /// No usable biometry on this device.
    case notSupported
}

/// The kinds of biometric sensor.
public enum BiometryKind: String, Sendable, Equatable {
    /// A fingerprint (Touch ID).
    case fingerprint
    /// A face (Face ID).
    case face
    /// An iris (Optic ID).
    case iris
    /// A kind this SDK does not name yet.
    case other
    /// A stand-in without a sensor (tests, Linux).
    case software
}

/// Why biometry failed.
public enum BiometryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Biometry cannot be used now (``BiometryAvailability``).
    case unavailable(BiometryAvailability)
    /// The user cancelled, or did not pass, the biometric check.
    case notAuthenticated
    /// No key is stored for the activation (biometry was removed, or enrolment changed).
    case keyMissing
    /// The system refused to store or read the key; its message.
    case system(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .unavailable(.notEnrolled): "No finger or face is enrolled on this device."
        case .unavailable(.lockedOut): "Biometry is locked after too many attempts; unlock the device with its passcode."
        case .unavailable: "This device offers no biometry."
        case .notAuthenticated: "The biometric check was cancelled or did not pass."
        case .keyMissing: "The biometry key of this activation is gone; set up biometry again."
        case .system(let why): "Biometry failed: \(why)"
        }
    }
}

/// The seam that keeps the biometry factor's key (`KEY_SIGNATURE_BIOMETRY`) behind the user's
/// biometry: ``LocalAuthenticationBiometry`` on Apple platforms (a Keychain item only a biometric
/// check releases), ``SoftwareBiometry`` in tests and on Linux.
public protocol Biometry: Sendable {
    /// What the device offers now.
    ///
    /// - Returns: The availability.
    func availability() async -> BiometryAvailability

    /// Stores `key` under `account`, replacing any key there, so that only a biometric check
    /// reads it back.
    ///
    /// - Parameters:
    ///   - key: The 16-byte key.
    ///   - account: A name unique to the activation (app, configuration and activation).
    /// - Throws: ``BiometryError``.
    func storeKey(_ key: Data, account: String) async throws(BiometryError)

    /// Asks the user for the biometric check, then reads the key under `account`.
    ///
    /// - Parameters:
    ///   - account: The name the key was stored under.
    ///   - reason: The sentence the system shows (why the app asks).
    /// - Returns: The key.
    /// - Throws: ``BiometryError/notAuthenticated``, ``BiometryError/keyMissing``, or another
    ///   ``BiometryError``.
    func readKey(account: String, reason: String) async throws(BiometryError) -> Data

    /// Deletes the key under `account`; deleting a missing key succeeds.
    ///
    /// - Parameter account: The name the key was stored under.
    /// - Throws: ``BiometryError/system(_:)``.
    func deleteKey(account: String) async throws(BiometryError)
}
