import Foundation
import KeywayPowerAuth
import Logging

/// The administration of PowerAuth: an application's credentials and settings, activation codes
/// for a user, the activations' lifecycle (commit, block, unblock, remove). Each change is one
/// write transaction.
struct PowerAuthAdministration: Sendable {
    let database: any Database
    let clock: any ServerClock
    let secrets: PowerAuthSecrets

    static let defaultCodeLifetime = 600
    static let codeLifetimes = 60...604_800

    /// The application's credentials, created on first use.
    func settings(configId: String) async throws -> PowerAuthApplicationSettings {
        let now = clock.now().epochMilliseconds
        let secrets = self.secrets
        return try await database.write { repositories in
            guard let application = try await repositories.applications.find(configId: configId) else {
                throw PowerAuthAdminError.applicationNotFound(configId: configId)
            }
            let credentials = try await PowerAuthCredentials.ensure(
                applicationId: application.id, secrets: secrets, now: now, in: repositories)
            return Self.settings(credentials, configId: configId)
        }
    }

    /// Changes the failure limit and whether activations hand out recovery codes.
    func updateSettings(configId: String, _ update: PowerAuthSettingsUpdate) async throws -> PowerAuthApplicationSettings {
        if let max = update.maxFailedAttempts, !(1...20).contains(max) {
            throw PowerAuthAdminError.invalidInput(field: "maxFailedAttempts", message: "Allow 1 to 20 failed attempts.")
        }
        let now = clock.now().epochMilliseconds
        let secrets = self.secrets
        return try await database.write { repositories in
            guard let application = try await repositories.applications.find(configId: configId) else {
                throw PowerAuthAdminError.applicationNotFound(configId: configId)
            }
            let current = try await PowerAuthCredentials.ensure(
                applicationId: application.id, secrets: secrets, now: now, in: repositories)
            try await repositories.powerAuthApplications.updateSettings(
                applicationId: application.id,
                maxFailedAttempts: update.maxFailedAttempts ?? current.record.maxFailedAttempts,
                recoveryEnabled: update.recoveryEnabled ?? current.record.recoveryEnabled)
            guard let record = try await repositories.powerAuthApplications.find(applicationId: application.id) else {
                throw PowerAuthAdminError.applicationNotFound(configId: configId)
            }
            return Self.settings(try PowerAuthCredentials.open(record, secrets: secrets), configId: configId)
        }
    }

    private static func settings(_ credentials: PowerAuthCredentials, configId: String) -> PowerAuthApplicationSettings {
        PowerAuthApplicationSettings(
            configId: configId, applicationKey: credentials.record.applicationKey,
            applicationSecret: credentials.applicationSecret, masterServerPublicKey: credentials.record.masterPublicKey,
            maxFailedAttempts: credentials.record.maxFailedAttempts, recoveryEnabled: credentials.record.recoveryEnabled)
    }

    /// A new activation code for the user in the application `configId`, which must be of the
    /// user's project.
    func createCode(userId: String, request: CreateActivationCodeRequest, defaultConfigId: String? = nil) async throws
        -> CreatedActivationCode
    {
        guard let configId = request.configId ?? defaultConfigId, !configId.isEmpty else {
            throw PowerAuthAdminError.invalidInput(field: "configId", message: "Name the application (configId).")
        }
        let lifetime = request.expiresIn ?? Self.defaultCodeLifetime
        guard Self.codeLifetimes.contains(lifetime) else {
            throw PowerAuthAdminError.invalidInput(field: "expiresIn", message: "A code lives 60 to 604800 seconds.")
        }
        if let otp = request.otp, !(4...64).contains(otp.count) {
            throw PowerAuthAdminError.invalidInput(field: "otp", message: "An OTP has 4 to 64 characters.")
        }
        let commit: PowerAuthCommitMode
        switch request.commit ?? "automatic" {
        case "automatic": commit = .automatic
        case "confirm": commit = .confirm
        default: throw PowerAuthAdminError.invalidInput(field: "commit", message: "commit is automatic or confirm.")
        }
        if let name = request.name, name.utf8.count > 255 {
            throw PowerAuthAdminError.invalidInput(field: "name", message: "A name has at most 255 bytes.")
        }
        let now = clock.now().epochMilliseconds
        let secrets = self.secrets
        return try await database.write { repositories in
            let (user, application) = try await PowerAuthAdministration.userAndApplication(
                userId: userId, configId: configId, in: repositories)
            return try await Self.insertCode(
                userId: user.id, applicationId: application.id, lifetime: lifetime, otp: request.otp, commit: commit,
                name: request.name, secrets: secrets, now: now, in: repositories)
        }
    }

    /// The user `userId` and the application `configId` of the user's project, or the refusal
    /// naming the one that is missing.
    static func userAndApplication(userId: String, configId: String, in repositories: Repositories) async throws
        -> (UserRecord, ApplicationRecord)
    {
        guard let user = try await repositories.users.find(id: userId) else {
            throw PowerAuthAdminError.userNotFound(userId: userId)
        }
        guard let application = try await repositories.applications.find(configId: configId),
            application.projectId == user.projectId
        else { throw PowerAuthAdminError.applicationNotFound(configId: configId) }
        return (user, application)
    }

    /// Inserts a new activation code in the caller's transaction (the application's credentials
    /// made if it has none yet) and answers it, signed by the master key.
    static func insertCode(
        userId: String, applicationId: String, lifetime: Int, otp: String?, commit: PowerAuthCommitMode, name: String?,
        secrets: PowerAuthSecrets, now: Int64, in repositories: Repositories
    ) async throws -> CreatedActivationCode {
        let expiresAt = now + Int64(lifetime) * 1000
        let credentials = try await PowerAuthCredentials.ensure(
            applicationId: applicationId, secrets: secrets, now: now, in: repositories)
        let code = ActivationCode.random()
        let id = UUID().uuidString.lowercased()
        try await repositories.powerAuthActivations.insert(
            PowerAuthActivationRecord(
                id: id, applicationId: applicationId, userId: userId, status: .created,
                codeLookup: secrets.hash(code.value, purpose: "activation-code"), codeExpiresAt: expiresAt,
                otpHash: otp.map { secrets.hash($0, purpose: "otp:\(id)") }, otpAttempts: 0,
                commitMode: commit, devicePublicKey: nil, serverPublicKey: nil, sealedServerPrivateKey: nil,
                counterData: nil, counter: 0, failedAttempts: 0, maxFailedAttempts: credentials.record.maxFailedAttempts,
                name: name, platform: nil, deviceInfo: nil, extras: nil, fingerprint: nil, blockedReason: nil,
                createdAt: now, updatedAt: now, lastUsedAt: nil, removedAt: nil))
        let signature = try ActivationSignature.sign(code: code, masterPrivateKey: credentials.masterPrivateKey)
            .base64EncodedString()
        return CreatedActivationCode(
            activationId: id, activationCode: code.value, activationSignature: signature,
            qrPayload: code.value + "#" + signature, status: PowerAuthActivationStatus.created.rawValue,
            expiresAt: RFC3339.string(expiresAt))
    }

    /// The user's activations, newest first (in one application when `configId` is given).
    func list(userId: String, configId: String? = nil) async throws -> PowerAuthActivationList {
        try await database.read { repositories in
            guard try await repositories.users.find(id: userId) != nil else {
                throw PowerAuthAdminError.userNotFound(userId: userId)
            }
            var applicationId: String?
            if let configId {
                guard let application = try await repositories.applications.find(configId: configId) else {
                    throw PowerAuthAdminError.applicationNotFound(configId: configId)
                }
                applicationId = application.id
            }
            var configIds: [String: String] = [:]
            var summaries: [PowerAuthActivationSummary] = []
            for activation in try await repositories.powerAuthActivations.all(userId: userId, applicationId: applicationId) {
                if configIds[activation.applicationId] == nil {
                    configIds[activation.applicationId] =
                        try await repositories.applications.find(id: activation.applicationId)?.configId ?? ""
                }
                summaries.append(Self.summary(activation, configId: configIds[activation.applicationId] ?? ""))
            }
            return PowerAuthActivationList(activations: summaries)
        }
    }

    static func summary(_ activation: PowerAuthActivationRecord, configId: String) -> PowerAuthActivationSummary {
        PowerAuthActivationSummary(
            activationId: activation.id, configId: configId, status: activation.status.rawValue, name: activation.name,
            platform: activation.platform, deviceInfo: activation.deviceInfo, fingerprint: activation.fingerprint,
            failedAttempts: activation.failedAttempts, maxFailedAttempts: activation.maxFailedAttempts,
            createdAt: RFC3339.string(activation.createdAt), lastUsedAt: activation.lastUsedAt.map(RFC3339.string),
            blockedReason: activation.blockedReason)
    }

    /// PENDING_COMMIT → ACTIVE; with the OTP when the code was made with one (wrong ones count).
    func commit(activationId: String, otp: String?) async throws -> PowerAuthActivationSummary {
        let now = clock.now().epochMilliseconds
        let secrets = self.secrets
        let outcome: Result<PowerAuthActivationSummary, PowerAuthAdminError> = try await change(activationId) { activation, _ in
            guard activation.status == .pendingCommit else {
                return .failure(.stateConflict("Only an activation waiting for its commit (PENDING_COMMIT) can be committed."))
            }
            if let otpHash = activation.otpHash {
                guard let otp, secrets.matches(otp, purpose: "otp:\(activation.id)", stored: otpHash) else {
                    activation.otpAttempts += 1
                    let remaining = max(0, PowerAuthActivationService.maxOtpAttempts - activation.otpAttempts)
                    if remaining == 0 {
                        activation.status = .removed
                        activation.removedAt = now
                    }
                    return .failure(.otpInvalid(remaining: remaining))
                }
            }
            activation.status = .active
            return nil
        }
        return try outcome.get()
    }

    /// ACTIVE → BLOCKED.
    func block(activationId: String, reason: String?) async throws -> PowerAuthActivationSummary {
        if let reason, reason.utf8.count > 255 {
            throw PowerAuthAdminError.invalidInput(field: "reason", message: "A reason has at most 255 bytes.")
        }
        return try await change(activationId) { activation, _ in
            guard activation.status == .active || activation.status == .blocked else {
                return .failure(.stateConflict("Only an active activation can be blocked."))
            }
            activation.status = .blocked
            activation.blockedReason = reason ?? "BLOCKED_BY_ADMINISTRATOR"
            return nil
        }.get()
    }

    /// BLOCKED → ACTIVE, the failure count reset.
    func unblock(activationId: String) async throws -> PowerAuthActivationSummary {
        try await change(activationId) { activation, _ in
            guard activation.status == .blocked || activation.status == .active else {
                return .failure(.stateConflict("Only a blocked activation can be unblocked."))
            }
            activation.status = .active
            activation.failedAttempts = 0
            activation.blockedReason = nil
            return nil
        }.get()
    }

    /// Any state → REMOVED.
    func remove(activationId: String) async throws -> PowerAuthActivationSummary {
        let now = clock.now().epochMilliseconds
        return try await change(activationId) { activation, _ in
            if activation.status != .removed {
                activation.status = .removed
                activation.removedAt = now
                activation.codeLookup = nil
            }
            return nil
        }.get()
    }

    /// Whether `activationId` belongs to `userId` (for the user's own routes).
    func belongs(activationId: String, to userId: String) async throws -> Bool {
        try await database.read { try await $0.powerAuthActivations.find(id: activationId)?.userId == userId }
    }

    /// Loads the activation, applies `body` and writes it back, in one transaction. `body` answers
    /// a refusal (whose changes are still written, so attempts count) or `nil` to proceed.
    private func change(
        _ activationId: String,
        _ body: @escaping @Sendable (inout PowerAuthActivationRecord, Repositories) -> Result<PowerAuthActivationSummary, PowerAuthAdminError>?
    ) async throws -> Result<PowerAuthActivationSummary, PowerAuthAdminError> {
        let now = clock.now().epochMilliseconds
        return try await database.write { repositories in
            guard var activation = try await repositories.powerAuthActivations.find(id: activationId) else {
                return .failure(.activationNotFound(activationId: activationId))
            }
            let refusal = body(&activation, repositories)
            activation.updatedAt = now
            try await repositories.powerAuthActivations.update(activation)
            if let refusal { return refusal }
            let configId = try await repositories.applications.find(id: activation.applicationId)?.configId ?? ""
            return .success(Self.summary(activation, configId: configId))
        }
    }
}
