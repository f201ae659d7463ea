import Crypto
import Foundation

extension DeviceActivation {
    /// Sets up the biometry factor on a committed activation: the server releases the vault key
    /// for a possession-and-knowledge signature (`POST /pa/v3/vault/unlock`, ECIES in activation
    /// scope), which opens the device private key, whose master secret gives the biometry key;
    /// the key goes behind the ``Biometry`` seam. The vault key and the private key are then
    /// forgotten.
    ///
    /// - Parameter password: The activation's password.
    /// - Throws: ``ActivationError``: `authenticationFailed` for a wrong password, `biometry`,
    ///   `invalidResponse`, the transport's errors, `storage`.
    public func addBiometry(password: String) async throws(ActivationError) {
        guard let seam = options.biometry else { throw .biometry(.unavailable(.notSupported)) }
        guard case .available = await seam.availability() else { throw .biometry(.unavailable(await seam.availability())) }
        let record = try await committedRecord()
        let vaultKey = try await unlockVault(record, authentication: .password(password), reason: .addBiometry)
        let biometryKey: Data
        do {
            let devicePrivateKey = try PowerAuthKeyProtection.decryptDevicePrivateKey(record.encryptedDevicePrivateKey, vaultKey: vaultKey)
            let serverKey = try PowerAuthKeys.publicKey(record.serverPublicKey)
            let keys = try PowerAuthDerivedKeys(masterSecret: try PowerAuthKeys.masterSecret(privateKey: devicePrivateKey, publicKey: serverKey))
            biometryKey = keys.signatureBiometry.bytes
        } catch {
            throw .invalidResponse("The vault key does not open the device key (\(error)).")
        }
        do {
            try await seam.storeKey(biometryKey, account: biometryAccount(activationID: record.activationID))
        } catch {
            throw .biometry(error)
        }
        try await update(expectedID: record.activationID) { record in record.hasBiometry = true }
    }

    /// Removes the biometry factor: its key is deleted; signatures then use the password.
    ///
    /// - Throws: ``ActivationError``: `noActivation`, `biometry`, `storage`.
    public func removeBiometry() async throws(ActivationError) {
        let record = try await existingRecord()
        try await update(expectedID: record.activationID) { record in
            record.hasBiometry = false
            record.pendingBiometryKey = nil
        }
        if let seam = options.biometry {
            do {
                try await seam.deleteKey(account: biometryAccount(activationID: record.activationID))
            } catch {
                throw .biometry(error)
            }
        }
    }
}
