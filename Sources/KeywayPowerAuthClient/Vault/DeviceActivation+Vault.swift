import Crypto
import Foundation
import KeywayPowerAuthWire

/// Why the vault is unlocked, as `/pa/v3/vault/unlock` names it.
enum VaultUnlockReason: String, Sendable {
    case addBiometry = "ADD_BIOMETRY"
    case fetchEncryptionKey = "FETCH_ENCRYPTION_KEY"
    case signWithDevicePrivateKey = "SIGN_WITH_DEVICE_PRIVATE_KEY"
    case recoveryCode = "RECOVERY_CODE"
}

extension DeviceActivation {
    /// A symmetric key of the activation for the app's own local encryption:
    /// `KDF(KEY_ENCRYPTION_VAULT, index)` (AES-128 of the index under the vault key, as the
    /// reference SDK derives it). The server releases the vault key for a signature with two
    /// factors (`POST /pa/v3/vault/unlock`, reason `FETCH_ENCRYPTION_KEY`); the device never
    /// stores it. The same index gives the same key on every launch for as long as the
    /// activation lives; different indexes give unrelated keys.
    ///
    /// - Parameters:
    ///   - index: The key's index (the app's choice).
    ///   - authentication: Possession with a password, biometry or both.
    /// - Returns: A 16-byte key.
    /// - Throws: ``ActivationError``: `invalidFactors` for possession alone,
    ///   `authenticationFailed` for a wrong password, `invalidResponse`, the transport's errors,
    ///   `noActivation`, `notCommitted`, `storage`.
    public func fetchEncryptionKey(index: UInt64, authentication: FactorAuthentication) async throws(ActivationError) -> SymmetricKey {
        let record = try await committedRecord()
        let vaultKey = try await unlockVault(record, authentication: authentication, reason: .fetchEncryptionKey)
        do {
            return try PowerAuthKDF.derive(key: vaultKey, index: index)
        } catch {
            throw .invalidResponse("The vault key is not a 16-byte key.")
        }
    }

    /// Signs `data` with the device private key (ECDSA over P-256 with SHA-256, DER): the vault
    /// is unlocked (reason `SIGN_WITH_DEVICE_PRIVATE_KEY`), the private key decrypted for this
    /// signature only. The server (and `KeywayBackend`) verify it with the device public key it
    /// received at activation.
    ///
    /// - Parameters:
    ///   - data: The bytes to sign.
    ///   - authentication: Possession with a password, biometry or both.
    /// - Returns: The DER-encoded signature.
    /// - Throws: The errors of ``fetchEncryptionKey(index:authentication:)``.
    public func signWithDevicePrivateKey(_ data: Data, authentication: FactorAuthentication) async throws(ActivationError) -> Data {
        let record = try await committedRecord()
        let vaultKey = try await unlockVault(record, authentication: authentication, reason: .signWithDevicePrivateKey)
        do {
            let agreementKey = try PowerAuthKeyProtection.decryptDevicePrivateKey(record.encryptedDevicePrivateKey, vaultKey: vaultKey)
            let signingKey = try P256.Signing.PrivateKey(rawRepresentation: agreementKey.rawRepresentation)
            return try signingKey.signature(for: data).derRepresentation
        } catch {
            throw .invalidResponse("The vault key does not open the device key (\(error)).")
        }
    }

    /// `POST /pa/v3/vault/unlock`: the request `{"reason": …}` sealed in activation scope
    /// (`sh1="/pa/vault/unlock"`, an activation-scope temporary key), signed over the sealed body
    /// with two factors (URI ID `/pa/vault/unlock`); the answer's `encryptedVaultEncryptionKey`
    /// opened with the transport key.
    func unlockVault(
        _ record: ActivationRecord, authentication: FactorAuthentication, reason: VaultUnlockReason
    ) async throws(ActivationError) -> SymmetricKey {
        guard authentication.factors.count >= 2, authentication.factors.contains(.possession) else {
            throw .invalidFactors("Unlocking the vault takes possession and a password or biometry.")
        }
        let answer = try await encryptedSignedPost(
            .vaultUnlock, plaintext: try PowerAuthHTTP.encode(VaultUnlockRequest(reason: reason.rawValue)), record: record, with: authentication)
        let response = try PowerAuthHTTP.decode(VaultUnlockResponse.self, from: answer, what: "vault answer")
        guard let encrypted = Data(base64Encoded: response.encryptedVaultEncryptionKey) else {
            throw .invalidResponse("The encrypted vault key is not Base64.")
        }
        do {
            return try PowerAuthKeyProtection.decryptVaultKey(encrypted, transportKey: SymmetricKey(data: record.transportKey))
        } catch {
            throw .invalidResponse("The vault key does not decrypt with this activation's transport key.")
        }
    }
}
