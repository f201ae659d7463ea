import Crypto
import CryptoExtras
import Foundation

/// The vault unlock's answer: `KEY_ENCRYPTION_VAULT` encrypted under `KEY_TRANSPORT` with
/// AES-128-CBC, a zero IV and PKCS #7 padding (`encryptedVaultEncryptionKey`).
public enum PowerAuthVaultKey {
    /// Encrypts the vault key, as the server does.
    ///
    /// - Parameters:
    ///   - vaultKey: `KEY_ENCRYPTION_VAULT` (16 bytes).
    ///   - transportKey: `KEY_TRANSPORT` (16 bytes).
    /// - Returns: 32 encrypted bytes.
    /// - Throws: `PowerAuthError.invalidLength` for keys not 16 bytes.
    public static func encrypt(_ vaultKey: SymmetricKey, transportKey: SymmetricKey) throws(PowerAuthError) -> Data {
        try Bytes.require(vaultKey.data, count: 16, field: "vault key")
        try Bytes.require(transportKey.data, count: 16, field: "transport key")
        do {
            return try AES._CBC.encrypt(vaultKey.data, using: transportKey, iv: AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16)))
        } catch {
            throw .decryptionFailed
        }
    }

    /// Decrypts `encryptedVaultEncryptionKey`, as the device does.
    ///
    /// - Parameters:
    ///   - encrypted: The encrypted key.
    ///   - transportKey: `KEY_TRANSPORT` (16 bytes).
    /// - Returns: `KEY_ENCRYPTION_VAULT`.
    /// - Throws: `PowerAuthError.decryptionFailed`, or `.invalidLength` when the result is not 16 bytes.
    public static func decrypt(_ encrypted: Data, transportKey: SymmetricKey) throws(PowerAuthError) -> SymmetricKey {
        try Bytes.require(transportKey.data, count: 16, field: "transport key")
        let plain: Data
        do {
            plain = try AES._CBC.decrypt(encrypted, using: transportKey, iv: AES._CBC.IV(ivBytes: [UInt8](repeating: 0, count: 16)))
        } catch {
            throw .decryptionFailed
        }
        try Bytes.require(plain, count: 16, field: "vault key")
        return SymmetricKey(data: plain)
    }
}
