import Crypto
import CryptoExtras
import Foundation

/// How a device keeps its keys: the knowledge key under a password, the device private key in the
/// vault.
public enum PowerAuthKeyProtection {
    /// The PBKDF2 iteration count the protocol asks for at least.
    public static let defaultIterations = 10_000

    /// The key that wraps the knowledge key: PBKDF2 with HMAC-SHA1 over the password's UTF-8 bytes,
    /// 128 bits, as the reference implementation derives it.
    ///
    /// - Parameters:
    ///   - password: The PIN or password.
    ///   - salt: The random salt kept with the wrapped key (16 bytes by recommendation).
    ///   - iterations: The iteration count, at least 10 000 by recommendation.
    /// - Returns: The 16-byte wrapping key.
    /// - Throws: `PowerAuthError.invalidLength` for an empty salt or an iteration count below 1.
    public static func passwordKey(password: String, salt: Data, iterations: Int = defaultIterations) throws(PowerAuthError) -> SymmetricKey {
        guard !salt.isEmpty else { throw .invalidLength(field: "salt", expected: "at least 1", actual: 0) }
        guard iterations >= 1 else { throw .invalidLength(field: "iterations", expected: "at least 1", actual: iterations) }
        do {
            return try KDF.Insecure.PBKDF2.deriveKey(
                from: Data(password.utf8), salt: salt, using: .insecureSHA1, outputByteCount: 16, unsafeUncheckedRounds: iterations)
        } catch {
            throw .invalidLength(field: "PBKDF2 parameters", expected: "valid", actual: iterations)
        }
    }

    /// `C_KEY_SIGNATURE_KNOWLEDGE`: the knowledge key encrypted with AES-128-CBC, zero IV, no padding,
    /// under the password key. A wrong password later decrypts to a wrong key without any error, so
    /// a PIN cannot be tried offline.
    ///
    /// - Parameters:
    ///   - knowledgeKey: `KEY_SIGNATURE_KNOWLEDGE` (16 bytes).
    ///   - password: The PIN or password.
    ///   - salt: The salt to keep with the result.
    ///   - iterations: The PBKDF2 iteration count.
    /// - Returns: 16 encrypted bytes.
    /// - Throws: `PowerAuthError.invalidLength` for a key not 16 bytes or bad PBKDF2 parameters.
    public static func encryptKnowledgeKey(
        _ knowledgeKey: SymmetricKey, password: String, salt: Data, iterations: Int = defaultIterations
    ) throws(PowerAuthError) -> Data {
        try Bytes.require(knowledgeKey.data, count: 16, field: "knowledge key")
        let key = try passwordKey(password: password, salt: salt, iterations: iterations)
        do {
            return try AES._CBC.encrypt(knowledgeKey.data, using: key, iv: zeroIV(), noPadding: true)
        } catch {
            throw .decryptionFailed
        }
    }

    /// Decrypts `C_KEY_SIGNATURE_KNOWLEDGE` with a password; a wrong password gives a wrong key.
    ///
    /// - Parameters:
    ///   - encrypted: The 16 encrypted bytes.
    ///   - password: The PIN or password.
    ///   - salt: The salt kept with them.
    ///   - iterations: The PBKDF2 iteration count.
    /// - Returns: The knowledge key (right only for the right password).
    /// - Throws: `PowerAuthError.invalidLength` for a value not 16 bytes or bad PBKDF2 parameters.
    public static func decryptKnowledgeKey(
        _ encrypted: Data, password: String, salt: Data, iterations: Int = defaultIterations
    ) throws(PowerAuthError) -> SymmetricKey {
        try Bytes.require(encrypted, count: 16, field: "encrypted knowledge key")
        let key = try passwordKey(password: password, salt: salt, iterations: iterations)
        do {
            return SymmetricKey(data: try AES._CBC.decrypt(encrypted, using: key, iv: zeroIV(), noPadding: true))
        } catch {
            throw .decryptionFailed
        }
    }

    /// `C_KEY_DEVICE_PRIVATE`: the device private key's 32-byte scalar encrypted with AES-128-CBC,
    /// zero IV, PKCS #7 padding, under `KEY_ENCRYPTION_VAULT`.
    ///
    /// - Parameters:
    ///   - privateKey: `KEY_DEVICE_PRIVATE`.
    ///   - vaultKey: `KEY_ENCRYPTION_VAULT` (16 bytes).
    /// - Returns: 48 encrypted bytes.
    /// - Throws: `PowerAuthError.invalidLength` for a vault key not 16 bytes.
    public static func encryptDevicePrivateKey(
        _ privateKey: P256.KeyAgreement.PrivateKey, vaultKey: SymmetricKey
    ) throws(PowerAuthError) -> Data {
        try Bytes.require(vaultKey.data, count: 16, field: "vault key")
        do {
            return try AES._CBC.encrypt(privateKey.rawRepresentation, using: vaultKey, iv: zeroIV())
        } catch {
            throw .decryptionFailed
        }
    }

    /// Decrypts `C_KEY_DEVICE_PRIVATE` with `KEY_ENCRYPTION_VAULT`. The scalar may be written as Java's
    /// `BigInteger` writes it (with or without a leading zero byte).
    ///
    /// - Parameters:
    ///   - encrypted: The encrypted key.
    ///   - vaultKey: `KEY_ENCRYPTION_VAULT` (16 bytes).
    /// - Returns: The device private key.
    /// - Throws: `PowerAuthError.invalidLength` for a vault key not 16 bytes, `.decryptionFailed`, or
    ///   `.invalidKey` when the plaintext is not a P-256 scalar.
    public static func decryptDevicePrivateKey(_ encrypted: Data, vaultKey: SymmetricKey) throws(PowerAuthError) -> P256.KeyAgreement.PrivateKey {
        try Bytes.require(vaultKey.data, count: 16, field: "vault key")
        let plain: Data
        do {
            plain = try AES._CBC.decrypt(encrypted, using: vaultKey, iv: zeroIV())
        } catch {
            throw .decryptionFailed
        }
        return try PowerAuthKeys.privateKey(plain)
    }

    /// `encryptedVaultEncryptionKey`, as `/pa/v3/vault/unlock` sends it: `KEY_ENCRYPTION_VAULT`
    /// encrypted with AES-128-CBC, zero IV, PKCS #7 padding, under `KEY_TRANSPORT`.
    ///
    /// - Parameters:
    ///   - vaultKey: `KEY_ENCRYPTION_VAULT` (16 bytes).
    ///   - transportKey: `KEY_TRANSPORT` (16 bytes).
    /// - Returns: 32 encrypted bytes.
    /// - Throws: `PowerAuthError.invalidLength` for a key not 16 bytes.
    public static func encryptVaultKey(_ vaultKey: SymmetricKey, transportKey: SymmetricKey) throws(PowerAuthError) -> Data {
        try Bytes.require(vaultKey.data, count: 16, field: "vault key")
        try Bytes.require(transportKey.data, count: 16, field: "transport key")
        do {
            return try AES._CBC.encrypt(vaultKey.data, using: transportKey, iv: zeroIV())
        } catch {
            throw .decryptionFailed
        }
    }

    /// Decrypts `encryptedVaultEncryptionKey` with `KEY_TRANSPORT` (see
    /// ``encryptVaultKey(_:transportKey:)``); 16 bytes are read as written without padding.
    ///
    /// - Parameters:
    ///   - encrypted: The encrypted vault key.
    ///   - transportKey: `KEY_TRANSPORT` (16 bytes).
    /// - Returns: `KEY_ENCRYPTION_VAULT`.
    /// - Throws: `PowerAuthError.invalidLength` for a transport key not 16 bytes or a result not
    ///   16 bytes, `.decryptionFailed` for bad padding.
    public static func decryptVaultKey(_ encrypted: Data, transportKey: SymmetricKey) throws(PowerAuthError) -> SymmetricKey {
        try Bytes.require(transportKey.data, count: 16, field: "transport key")
        let plain: Data
        do {
            plain = try AES._CBC.decrypt(encrypted, using: transportKey, iv: zeroIV(), noPadding: encrypted.count == 16)
        } catch {
            throw .decryptionFailed
        }
        try Bytes.require(plain, count: 16, field: "vault key")
        return SymmetricKey(data: plain)
    }

    /// The zero IV the protocol uses for these keys.
    private static func zeroIV() throws -> AES._CBC.IV {
        try AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16))
    }
}
