import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire
import Logging

/// Recovery postcards made by an administrator, listed and revoked, and a device's confirmation of
/// a postcard's code (`/pa/v3/recovery/confirm`).
struct PowerAuthRecoveryService: Sendable {
    let database: any Database
    let clock: any ServerClock
    let secrets: PowerAuthSecrets
    let verifier: PowerAuthSignatureVerifier
    let keystore: PowerAuthKeystore
    let logger: Logger

    /// How the service's signed and encrypted requests are read.
    var signedEncryption: PowerAuthSignedEncryption {
        PowerAuthSignedEncryption(database: database, clock: clock, verifier: verifier, keystore: keystore)
    }

    // MARK: - Confirmation

    /// `POST /pa/v3/recovery/confirm`: a possession+knowledge signature over the encrypted body
    /// (uriId `/pa/recovery/confirm`), the body opened in activation scope (sharedInfo1
    /// `/pa/recovery/confirm`). A code of the activation's user and application goes CREATED →
    /// ACTIVE; an ACTIVE one is already confirmed; anything else is refused alike.
    func confirm(authorization: String?, body: Data) async throws -> EciesEnvelope {
        let opened = try await signedEncryption.open(.recoveryConfirm, authorization: authorization, body: body)
        let (activation, context) = (opened.activation, opened.context)
        let confirm = try PowerAuthJSON.decode(RecoveryConfirmRequest.self, from: opened.plaintext)
        let refusal = PowerAuthFailure.recovery("The recovery code is not valid.")
        guard let text = confirm.recoveryCode, text.utf8.count <= 64, let code = try? RecoveryCode(text) else {
            throw refusal
        }
        let lookup = secrets.hash(code.code.value, purpose: PowerAuthRecoveryCodes.codePurpose)
        let now = clock.now().epochMilliseconds
        let alreadyConfirmed: Bool = try await database.write { repositories in
            guard var recovery = try await repositories.powerAuthRecoveryCodes.find(codeLookup: lookup),
                recovery.userId == activation.userId, recovery.applicationId == activation.applicationId
            else { throw refusal }
            switch recovery.status {
            case .active:
                return true
            case .created:
                recovery.status = .active
                recovery.updatedAt = now
                try await repositories.powerAuthRecoveryCodes.update(recovery)
                return false
            case .blocked, .revoked:
                throw refusal
            }
        }
        logger.notice(
            "powerauth: recovery code confirmed",
            metadata: ["activation": "\(activation.id)", "alreadyConfirmed": "\(alreadyConfirmed)"])
        return try context.seal(
            try PowerAuthJSON.encode(RecoveryConfirmResponse(alreadyConfirmed: alreadyConfirmed)), now: clock.now())
    }

    // MARK: - Postcards

    /// A new postcard for the user in the application `configId` (of the user's project): a code
    /// in state CREATED and `pukCount` PUKs, answered in clear this once.
    func createPostcard(userId: String, request: CreateRecoveryPostcardRequest) async throws -> CreatedRecoveryPostcard {
        guard let configId = request.configId, !configId.isEmpty else {
            throw PowerAuthAdminError.invalidInput(field: "configId", message: "Name the application (configId).")
        }
        let pukCount = request.pukCount ?? PowerAuthRecoveryCodes.defaultPukCount
        guard PowerAuthRecoveryCodes.pukCounts.contains(pukCount) else {
            throw PowerAuthAdminError.invalidInput(field: "pukCount", message: "A postcard has 1 to 100 PUKs.")
        }
        let now = clock.now().epochMilliseconds
        let secrets = self.secrets
        return try await database.write { repositories in
            let (user, application) = try await PowerAuthAdministration.userAndApplication(
                userId: userId, configId: configId, in: repositories)
            _ = try await PowerAuthCredentials.ensure(applicationId: application.id, secrets: secrets, now: now, in: repositories)
            let (code, puks) = try await PowerAuthRecoveryCodes.derivePostcard(pukCount: pukCount) { code in
                try await repositories.powerAuthRecoveryCodes.find(
                    codeLookup: secrets.hash(code.code.value, purpose: PowerAuthRecoveryCodes.codePurpose)) != nil
            }
            let id = SecureRandom.identifier(prefix: "parc")
            try await repositories.powerAuthRecoveryCodes.insert(
                PowerAuthRecoveryCodeRecord(
                    id: id, applicationId: application.id, userId: user.id, activationId: nil,
                    codeLookup: secrets.hash(code.code.value, purpose: PowerAuthRecoveryCodes.codePurpose),
                    status: .created, failedAttempts: 0, maxFailedAttempts: PowerAuthRecoveryCodes.maxFailedAttempts,
                    recoveredActivationId: nil, createdAt: now, updatedAt: now),
                puks: puks.enumerated().map { offset, puk in
                    PowerAuthRecoveryPukRecord(
                        recoveryCodeId: id, index: offset + 1,
                        pukHash: secrets.hash(puk.value, purpose: PowerAuthRecoveryCodes.pukPurpose(codeId: id, index: offset + 1)),
                        status: .valid)
                })
            return CreatedRecoveryPostcard(
                recoveryCodeId: id, recoveryCode: code.code.value, qrPayload: code.qrText,
                status: PowerAuthRecoveryCodeStatus.created.rawValue,
                puks: puks.enumerated().map { .init(index: $0.offset + 1, puk: $0.element.value) })
        }
    }

    /// The user's recovery codes (postcards and those handed out with activations), oldest first.
    func list(userId: String) async throws -> RecoveryCodeList {
        try await database.read { repositories in
            guard try await repositories.users.find(id: userId) != nil else {
                throw PowerAuthAdminError.userNotFound(userId: userId)
            }
            var summaries: [RecoveryCodeSummary] = []
            for code in try await repositories.powerAuthRecoveryCodes.all(userId: userId) {
                summaries.append(try await Self.summary(code, in: repositories))
            }
            return RecoveryCodeList(recoveryCodes: summaries)
        }
    }

    /// Revokes a code: it can no longer recover, its unused PUKs are invalid. Answers the code as
    /// listed afterwards.
    func revoke(recoveryCodeId: String) async throws -> RecoveryCodeSummary {
        let now = clock.now().epochMilliseconds
        return try await database.write { repositories in
            guard var code = try await repositories.powerAuthRecoveryCodes.find(id: recoveryCodeId) else {
                throw PowerAuthAdminError.recoveryCodeNotFound(recoveryCodeId: recoveryCodeId)
            }
            if code.status != .revoked {
                code.status = .revoked
                code.updatedAt = now
                try await repositories.powerAuthRecoveryCodes.update(code)
                try await repositories.powerAuthRecoveryCodes.invalidateValidPuks(recoveryCodeId: code.id)
            }
            return try await Self.summary(code, in: repositories)
        }
    }

    private static func summary(_ code: PowerAuthRecoveryCodeRecord, in repositories: Repositories) async throws
        -> RecoveryCodeSummary
    {
        let puks = try await repositories.powerAuthRecoveryCodes.puks(recoveryCodeId: code.id)
        let configId = try await repositories.applications.find(id: code.applicationId)?.configId ?? ""
        return RecoveryCodeSummary(
            recoveryCodeId: code.id, configId: configId, status: code.status.rawValue, activationId: code.activationId,
            pukCount: puks.count, pukCurrentIndex: PowerAuthRecoveryCodes.current(puks)?.index,
            failedAttempts: code.failedAttempts, createdAt: RFC3339.string(code.createdAt))
    }
}

/// `POST /admin/users/{userId}/recovery-codes`.
struct CreateRecoveryPostcardRequest: Codable, Sendable {
    var configId: String?
    /// 1 to 100; 5 by default.
    var pukCount: Int?
}

/// A new postcard: the only time its PUKs are shown.
package struct CreatedRecoveryPostcard: Codable, Sendable, Equatable {
    package struct Puk: Codable, Sendable, Equatable {
        var index: Int
        var puk: String
    }

    var recoveryCodeId: String
    var recoveryCode: String
    /// `R:` and the code.
    var qrPayload: String
    var status: String
    package var puks: [Puk]
}

/// `GET /admin/users/{userId}/recovery-codes`.
package struct RecoveryCodeList: Codable, Sendable, Equatable {
    var recoveryCodes: [RecoveryCodeSummary]
}

/// One recovery code as the admin API lists it (never the code or its PUKs).
package struct RecoveryCodeSummary: Codable, Sendable, Equatable {
    var recoveryCodeId: String
    var configId: String
    var status: String
    var activationId: String?
    var pukCount: Int
    /// The PUK a recovery expects next; absent when none is left.
    var pukCurrentIndex: Int?
    var failedAttempts: Int
    var createdAt: String
}
