import Foundation
import Logging

/// PowerAuth for the `keyway-server project powerauth …` subcommands: the same operations as the
/// admin routes (``PowerAuthAdministration``), opened with the master key (the PowerAuth secrets
/// are sealed with the server's sealing key, itself sealed under it).
extension AdminService {
    /// The PowerAuth administration on this database.
    ///
    /// - Throws: ``AdminError/invalidInput(field:message:)`` without the master key.
    func powerAuth() async throws -> PowerAuthAdministration {
        guard let masterKey else {
            throw AdminError.invalidInput(field: "masterKey", message: "Give the master key: PowerAuth's secrets are sealed under it.")
        }
        let now = clock.now()
        let sealing = try await ServerSecretKey.loadOrCreate(
            named: ServerSecretKey.sealedSecrets, in: database, now: now, masterKey: masterKey)
        let hashing = try await ServerSecretKey.loadOrCreate(
            named: ServerSecretKey.oneTimeCodes, in: database, now: now, masterKey: masterKey)
        return PowerAuthAdministration(
            database: database, clock: clock, secrets: PowerAuthSecrets(box: SecretBox(key: sealing), hashKey: hashing))
    }

    /// The application's PowerAuth credentials and settings (created on first use).
    package func powerAuthSettings(configId: String) async throws -> PowerAuthApplicationSettings {
        try await adminErrors { try await powerAuth().settings(configId: configId) }
    }

    /// Changes the application's failure limit or recovery codes.
    package func updatePowerAuthSettings(configId: String, maxFailedAttempts: Int?, recoveryEnabled: Bool?)
        async throws -> PowerAuthApplicationSettings
    {
        try await adminErrors {
            try await powerAuth().updateSettings(
                configId: configId,
                PowerAuthSettingsUpdate(maxFailedAttempts: maxFailedAttempts, recoveryEnabled: recoveryEnabled))
        }
    }

    /// A new activation code for the user in the application.
    package func createActivationCode(
        userId: String, configId: String, expiresIn: Int?, otp: String?, commit: String?, name: String?
    ) async throws -> CreatedActivationCode {
        try await adminErrors {
            try await powerAuth().createCode(
                userId: userId,
                request: CreateActivationCodeRequest(configId: configId, expiresIn: expiresIn, otp: otp, commit: commit, name: name))
        }
    }

    /// The user's activations.
    package func activations(userId: String) async throws -> PowerAuthActivationList {
        try await adminErrors { try await powerAuth().list(userId: userId) }
    }

    /// An operation on an activation's lifecycle.
    package enum ActivationChange: Sendable {
        case commit(otp: String?)
        case block(reason: String?)
        case unblock
        case remove
    }

    /// Commits, blocks, unblocks or removes an activation.
    package func changeActivation(_ activationId: String, _ change: ActivationChange) async throws -> PowerAuthActivationSummary {
        try await adminErrors {
            let administration = try await powerAuth()
            switch change {
            case .commit(let otp): return try await administration.commit(activationId: activationId, otp: otp)
            case .block(let reason): return try await administration.block(activationId: activationId, reason: reason)
            case .unblock: return try await administration.unblock(activationId: activationId)
            case .remove: return try await administration.remove(activationId: activationId)
            }
        }
    }

    /// The recovery postcards and codes on this database.
    func powerAuthRecovery() async throws -> PowerAuthRecoveryService {
        let administration = try await powerAuth()
        let logger = Logger(label: "keyway.powerauth")
        let verifier = PowerAuthSignatureVerifier(
            database: database, clock: clock, secrets: administration.secrets, logger: logger)
        return PowerAuthRecoveryService(
            database: database, clock: clock, secrets: administration.secrets, verifier: verifier,
            keystore: PowerAuthKeystore(database: database, clock: clock, secrets: administration.secrets), logger: logger)
    }

    /// A recovery postcard for the user: its code and PUKs, shown this once.
    package func createRecoveryPostcard(userId: String, configId: String, pukCount: Int?) async throws -> CreatedRecoveryPostcard {
        try await adminErrors {
            try await powerAuthRecovery().createPostcard(
                userId: userId, request: CreateRecoveryPostcardRequest(configId: configId, pukCount: pukCount))
        }
    }

    /// The user's recovery codes.
    package func recoveryCodes(userId: String) async throws -> RecoveryCodeList {
        try await adminErrors { try await powerAuthRecovery().list(userId: userId) }
    }

    /// Revokes a recovery code.
    package func revokeRecoveryCode(_ recoveryCodeId: String) async throws -> RecoveryCodeSummary {
        try await adminErrors { try await powerAuthRecovery().revoke(recoveryCodeId: recoveryCodeId) }
    }

    /// Runs `body`, giving its refusals as ``AdminError``s.
    private func adminErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PowerAuthAdminError {
            switch error {
            case .applicationNotFound(let configId): throw AdminError.applicationNotFound(configId: configId)
            case .userNotFound(let userId): throw AdminError.userNotFound(userId: userId)
            case .invalidInput(let field, let message): throw AdminError.invalidInput(field: field, message: message)
            case .activationNotFound, .stateConflict, .otpInvalid, .tokenNotFound:
                throw AdminError.invalidInput(field: "activationId", message: error.description)
            case .recoveryCodeNotFound:
                throw AdminError.invalidInput(field: "recoveryCodeId", message: error.description)
            }
        }
    }
}
