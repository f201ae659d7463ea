import Crypto
import Foundation
import KeywayPowerAuthWire

extension DeviceActivation {
    /// The activation's recovery code and PUK, kept sealed under the vault key since the
    /// activation (the activation result showed them once): the vault is unlocked (reason
    /// `RECOVERY_CODE`) to open them.
    ///
    /// - Parameter authentication: Possession with a password, biometry or both.
    /// - Returns: The recovery code and its PUK.
    /// - Throws: ``ActivationError``: `recoveryNotAvailable` when the server issued none (checked
    ///   before the server is asked), `invalidFactors`, `authenticationFailed` for a wrong
    ///   password, the transport's errors, `noActivation`, `notCommitted`, `storage`.
    public func recoveryData(authentication: FactorAuthentication) async throws(ActivationError) -> RecoveryData {
        let record = try await committedRecord()
        guard let sealed = record.sealedRecovery else { throw .recoveryNotAvailable }
        let vaultKey = try await unlockVault(record, authentication: authentication, reason: .recoveryCode)
        let contents = try RecoverySeal.open(sealed, vaultKey: vaultKey, activationID: record.activationID)
        return RecoveryData(recoveryCode: contents.recoveryCode, puk: Sensitive(contents.puk))
    }

    /// Confirms a recovery postcard's code with the server (`POST /pa/v3/recovery/confirm`,
    /// encrypted in activation scope and signed with possession and knowledge): the code
    /// becomes usable for a recovery.
    ///
    /// - Parameters:
    ///   - recoveryCode: The postcard's code (`AAAAA-BBBBB-CCCCC-DDDDD`, with or without `R:`).
    ///   - authentication: Possession and knowledge (biometry may be added).
    /// - Returns: Whether the code had been confirmed before.
    /// - Throws: ``ActivationError``: `invalidRecoveryCode` for a malformed code,
    ///   `invalidFactors` without the knowledge factor, `server` (`ERR_RECOVERY`) for a code
    ///   the server does not confirm (unknown, or another user's), `authenticationFailed`, the
    ///   transport's errors, `noActivation`, `notCommitted`, `storage`.
    public func confirmRecoveryCode(_ recoveryCode: String, authentication: FactorAuthentication) async throws(ActivationError) -> Bool {
        let trimmed = recoveryCode.trimmingCharacters(in: .whitespaces)
        let body = trimmed.hasPrefix(RecoveryCode.qrPrefix) ? String(trimmed.dropFirst(RecoveryCode.qrPrefix.count)) : trimmed
        let code: ActivationCode
        do {
            code = try ActivationCode.parseTyped(body)
        } catch {
            throw .invalidRecoveryCode(error)
        }
        guard authentication.factors.contains(.possession), authentication.factors.contains(.knowledge) else {
            throw .invalidFactors("Confirming a recovery code takes possession and the password.")
        }
        let record = try await committedRecord()
        let answer = try await encryptedSignedPost(
            .recoveryConfirm, plaintext: try PowerAuthHTTP.encode(RecoveryConfirmRequest(recoveryCode: code.value)), record: record, with: authentication)
        return try PowerAuthHTTP.decode(RecoveryConfirmResponse.self, from: answer, what: "recovery confirmation answer").alreadyConfirmed
    }
}
