import Crypto
import Foundation
import KeywayPowerAuthWire

extension DeviceActivation {
    /// Commits the pending activation locally: the knowledge key goes under a PBKDF2 key of
    /// `password` (a fresh random salt), and with `biometry` the biometry key goes behind the
    /// ``Biometry`` seam. The device cannot tell a wrong password later; the server can.
    ///
    /// - Parameters:
    ///   - password: The PIN or password the user chose.
    ///   - biometry: Whether to set up the biometry factor too.
    /// - Throws: ``ActivationError``: `noActivation`, `alreadyCommitted`, `biometry` (nothing is
    ///   committed then), `storage`.
    public func commit(password: String, biometry: Bool = false) async throws(ActivationError) {
        let record = try await existingRecord()
        guard !record.isCommitted else { throw .alreadyCommitted }
        guard let knowledgeKey = record.pendingKnowledgeKey, let biometryKey = record.pendingBiometryKey else {
            throw .storage(.unreadable("The pending activation has lost its keys; remove it and activate again."))
        }
        let wrapped = try wrap(SymmetricKey(data: knowledgeKey), password: password)
        if biometry {
            guard let seam = options.biometry else { throw .biometry(.unavailable(.notSupported)) }
            do {
                try await seam.storeKey(biometryKey, account: biometryAccount(activationID: record.activationID))
            } catch {
                throw .biometry(error)
            }
        }
        try await update(expectedID: record.activationID) { record throws(ActivationError) in
            guard !record.isCommitted else { throw .alreadyCommitted }
            record.knowledge = wrapped
            record.pendingKnowledgeKey = nil
            record.pendingBiometryKey = nil
            record.hasBiometry = biometry
        }
    }

    /// Checks a password with the server (`POST /pa/v3/signature/validate`, signed with
    /// possession and knowledge). A wrong password counts as a failed attempt.
    ///
    /// - Parameter password: The password to check.
    /// - Throws: ``ActivationError/authenticationFailed(code:message:)`` for a wrong password, or
    ///   the errors of signing and of the transport.
    public func validatePassword(_ password: String) async throws(ActivationError) {
        _ = try await signedPost(.signatureValidate, body: Data("{}".utf8), with: .password(password))
    }

    /// Changes the password: checks the old one with the server
    /// (``validatePassword(_:)``), then wraps the knowledge key again under the new one (a
    /// fresh salt). The old password no longer unwraps it.
    ///
    /// - Parameters:
    ///   - oldPassword: The current password.
    ///   - newPassword: The new password.
    /// - Throws: ``ActivationError/authenticationFailed(code:message:)`` when the old password is
    ///   wrong (nothing changes), or the errors of signing, the transport and the storage.
    public func changePassword(from oldPassword: String, to newPassword: String) async throws(ActivationError) {
        try await validatePassword(oldPassword)
        try await changePasswordLocally(from: oldPassword, to: newPassword)
    }

    /// Wraps the knowledge key again under `newPassword` without asking the server. Only call it
    /// with an old password the server has just accepted (``validatePassword(_:)``): a wrong one
    /// would wrap a wrong key, and every later knowledge signature would fail.
    ///
    /// - Parameters:
    ///   - oldPassword: The current, checked password.
    ///   - newPassword: The new password.
    /// - Throws: ``ActivationError``: `noActivation`, `notCommitted`, `storage`.
    public func changePasswordLocally(from oldPassword: String, to newPassword: String) async throws(ActivationError) {
        let record = try await committedRecord()
        guard let knowledge = record.knowledge else { throw .notCommitted }
        let key = try unwrap(knowledge, password: oldPassword)
        let wrapped = try wrap(key, password: newPassword)
        try await update(expectedID: record.activationID) { record throws(ActivationError) in
            guard record.knowledge == knowledge else {
                throw ActivationError.storage(.unavailable("The password changed meanwhile; try again."))
            }
            record.knowledge = wrapped
        }
    }

    /// Forgets the activation on this device only (the server keeps it until it is removed
    /// there), with its tokens and its biometry key.
    ///
    /// - Throws: ``ActivationError/storage(_:)``.
    public func removeLocally() async throws(ActivationError) {
        let store = self.store
        let removed: ActivationRecord? = try await locked {
            let record = try await store.read()
            try await store.deleteTokens()
            try await store.delete()
            return record
        }
        if let removed, let seam = options.biometry {
            try? await seam.deleteKey(account: biometryAccount(activationID: removed.activationID))
        }
    }

    /// Removes the activation on the server (`POST /pa/v3/activation/remove`, signed with two
    /// factors), then on this device.
    ///
    /// - Parameter authentication: Two or three factors: ``FactorAuthentication/password(_:)``,
    ///   ``FactorAuthentication/biometry(reason:)`` or both.
    /// - Throws: ``ActivationError/invalidFactors(_:)`` for possession alone,
    ///   ``ActivationError/authenticationFailed(code:message:)`` for a wrong password (the
    ///   device keeps the activation), or the transport's errors.
    public func remove(with authentication: FactorAuthentication) async throws(ActivationError) {
        guard authentication.factors.count >= 2, authentication.factors.contains(.possession) else {
            throw .invalidFactors("Removing an activation takes possession and a password or biometry.")
        }
        _ = try await signedPost(.activationRemove, body: Data("{}".utf8), with: authentication)
        try await removeLocally()
    }

    // MARK: Knowledge key

    func wrap(_ key: SymmetricKey, password: String) throws(ActivationError) -> WrappedKnowledgeKey {
        let salt = Randomness.bytes(16)
        let iterations = options.passwordIterations
        do {
            let encrypted = try PowerAuthKeyProtection.encryptKnowledgeKey(key, password: password, salt: salt, iterations: iterations)
            return WrappedKnowledgeKey(encryptedKey: encrypted, salt: salt, iterations: iterations)
        } catch {
            throw .invalidConfiguration("The password key cannot be derived: \(error).")
        }
    }

    func unwrap(_ knowledge: WrappedKnowledgeKey, password: String) throws(ActivationError) -> SymmetricKey {
        do {
            return try PowerAuthKeyProtection.decryptKnowledgeKey(
                knowledge.encryptedKey, password: password, salt: knowledge.salt, iterations: knowledge.iterations)
        } catch {
            throw .storage(.unreadable("The stored knowledge key cannot be read: \(error)."))
        }
    }
}
