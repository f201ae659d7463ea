import Foundation

/// What a device keeps of its activation, as one entry of the secure storage (written whole, so
/// a counter step and the keys never tear apart). The device private key is kept only encrypted
/// under the vault key, which the server holds; the master secret is never kept.
struct ActivationRecord: Codable, Sendable, Equatable {
    /// The format of this entry.
    var format = 1
    /// `ACTIVATION_ID`.
    var activationID: String
    /// The name sent at activation.
    var name: String?
    /// `KEY_SERVER_PUBLIC`, as the server sent it (65 or 33 bytes).
    var serverPublicKey: Data
    /// `KEY_DEVICE_PUBLIC`, uncompressed.
    var devicePublicKey: Data
    /// The eight-digit fingerprint of the key exchange.
    var fingerprint: String
    /// `C_KEY_DEVICE_PRIVATE`: the device private key under `KEY_ENCRYPTION_VAULT`.
    var encryptedDevicePrivateKey: Data
    /// `KEY_SIGNATURE_POSSESSION`.
    var possessionKey: Data
    /// `KEY_TRANSPORT`.
    var transportKey: Data
    /// `CTR_DATA`: the next signature's counter value.
    var counterData: Data
    /// How many counter steps were taken (the server's `CTR` when in step).
    var counter: UInt64
    /// The knowledge key under the password, once committed.
    var knowledge: WrappedKnowledgeKey?
    /// Before the commit only: `KEY_SIGNATURE_KNOWLEDGE`, waiting for its password.
    var pendingKnowledgeKey: Data?
    /// Before the commit only: `KEY_SIGNATURE_BIOMETRY`, waiting to go behind biometry.
    var pendingBiometryKey: Data?
    /// Whether the biometry factor's key is stored behind biometry.
    var hasBiometry: Bool
    /// When the key exchange happened.
    var createdAt: Date
    /// The activation's recovery code and PUK, sealed (AES-GCM) under a key derived from
    /// `KEY_ENCRYPTION_VAULT`, which the server holds; `nil` when the server issued none.
    var sealedRecovery: Data? = nil

    /// Whether the local commit (password) is done.
    var isCommitted: Bool { knowledge != nil }
}

/// `C_KEY_SIGNATURE_KNOWLEDGE` with its PBKDF2 salt and iteration count.
struct WrappedKnowledgeKey: Codable, Sendable, Equatable {
    /// The 16 encrypted bytes.
    var encryptedKey: Data
    /// The PBKDF2 salt.
    var salt: Data
    /// The PBKDF2 iteration count.
    var iterations: Int
}
