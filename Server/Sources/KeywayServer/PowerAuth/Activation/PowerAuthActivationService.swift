import Crypto
import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire
import Logging

/// `POST /pa/v3/activation/create` and `/pa/v3/activation/status`: the key exchange of an
/// activation by code, by a Keyway sign-in (custom credentials) or by a recovery code, and the
/// encrypted status blob.
struct PowerAuthActivationService: Sendable {
    let database: any Database
    let clock: any ServerClock
    let secrets: PowerAuthSecrets
    let keystore: PowerAuthKeystore
    let customCredentials: PowerAuthCustomCredentials
    let logger: Logger

    /// Wrong OTPs (at the key exchange or the commit) before the code dies.
    static let maxOtpAttempts = 5

    // MARK: - Key exchange

    /// Opens both layers, creates or completes the activation, and answers both layers sealed.
    func create(encryptionHeader: String?, body: Data, dpopProofs: [String]) async throws -> EciesEnvelope {
        let header = try PowerAuthRequestHeader.encryption(encryptionHeader)
        let version = try PowerAuthProtocol.version(header.version)
        guard header.activationID == nil else {
            throw PowerAuthFailure.invalidRequest("The activation is created in application scope: send no activation_id.")
        }
        let level1 = try EciesRequest(PowerAuthJSON.decode(EciesEnvelope.self, from: body), version: version)
        try level1.checkTimestamp(now: clock.now())
        let secrets = self.secrets
        let (credentials, level1Key) = try await database.read { repositories in
            guard let credentials = try await PowerAuthCredentials.find(
                applicationKey: header.applicationKey, secrets: secrets, in: repositories)
            else { throw PowerAuthFailure.activation("No application has this application key.") }
            let key = try await keystore.privateKey(
                for: level1, applicationId: credentials.record.applicationId, activationId: nil,
                sealedTo: { try credentials.masterAgreementKey }, in: repositories)
            return (credentials, key)
        }
        let sharedInfo2Base = EciesContext.applicationScopeSharedInfo2Base(applicationSecret: credentials.applicationSecret)
        let context1 = try EciesServerContext(
            privateKey: level1Key, request: level1, sharedInfo1: .applicationScopeGeneric,
            sharedInfo2Base: sharedInfo2Base, applicationKey: header.applicationKey, activationId: nil)
        let layer1 = try PowerAuthJSON.decode(ActivationLayer1Request.self, from: try context1.open(level1))
        try await spend(level1)
        guard let activationData = layer1.activationData else {
            throw PowerAuthFailure.invalidRequest("activationData is required.")
        }
        let level2 = try EciesRequest(
            activationData, version: version, fallbackTemporaryKeyId: level1.temporaryKeyId)
        try level2.checkTimestamp(now: clock.now())
        let level2Key = try await database.read { repositories in
            try await keystore.privateKey(
                for: level2, applicationId: credentials.record.applicationId, activationId: nil,
                sealedTo: { try credentials.masterAgreementKey }, in: repositories)
        }
        let context2 = try EciesServerContext(
            privateKey: level2Key, request: level2, sharedInfo1: .activationLayer2, sharedInfo2Base: sharedInfo2Base,
            applicationKey: header.applicationKey, activationId: nil)
        let layer2 = try PowerAuthJSON.decode(ActivationLayer2Request.self, from: try context2.open(level2))
        let device = try DeviceDetails(layer2)

        let identity = layer1.identityAttributes ?? [:]
        let answer: ActivationLayer2Response
        switch layer1.kind {
        case "CODE":
            answer = try await activateByCode(identity: identity, device: device, credentials: credentials)
        case "CUSTOM":
            let userId = try await customCredentials.user(
                identity: identity, dpopProofs: dpopProofs, applicationId: credentials.record.applicationId)
            answer = try await activateNew(userId: userId, device: device, credentials: credentials)
        case "RECOVERY":
            answer = try await activateByRecovery(identity: identity, device: device, credentials: credentials)
        default:
            throw PowerAuthFailure.invalidRequest("type is CODE, CUSTOM or RECOVERY.")
        }
        let now = clock.now()
        let sealed2 = try context2.seal(try PowerAuthJSON.encode(answer), now: now)
        let sealed1 = try context1.seal(
            try PowerAuthJSON.encode(ActivationLayer1Response(customAttributes: [:], activationData: sealed2)), now: now)
        logger.notice(
            "powerauth: activation created",
            metadata: ["activation": "\(answer.activationId)", "type": "\(layer1.kind ?? "")"])
        return sealed1
    }

    /// Accepts an activation envelope once: within its timestamp window the same envelope sent
    /// again (a `CUSTOM` one would make another activation) is refused. Only envelopes that
    /// opened are kept, each until the window has passed.
    private func spend(_ envelope: EciesRequest) async throws {
        let seen = secrets.hash(
            [
                envelope.temporaryKeyId ?? "master", envelope.payload.ephemeralPublicKey?.base64EncodedString() ?? "",
                envelope.payload.nonce?.base64EncodedString() ?? "",
            ].joined(separator: "|"), purpose: "activation-envelope")
        let expiresAt = clock.now().epochMilliseconds + 2 * EciesRequest.timeWindow
        let fresh = try await database.write { try await $0.powerAuthReplays.insert(hash: seen, expiresAt: expiresAt) }
        guard fresh else { throw PowerAuthFailure.encryption("This encrypted activation request was sent before.") }
    }

    /// What the device sends of itself in the second layer, checked.
    struct DeviceDetails: Sendable {
        let publicKeyText: String
        let publicKey: P256.KeyAgreement.PublicKey
        let name: String?
        let otp: String?
        let platform: String?
        let deviceInfo: String?
        let extras: String?

        init(_ layer2: ActivationLayer2Request) throws(PowerAuthFailure) {
            let bytes = try PowerAuthField.base64(
                layer2.devicePublicKey, field: "devicePublicKey", count: [33, 65], maxLength: 128)
            do {
                publicKey = try PowerAuthKeys.publicKey(bytes)
            } catch {
                throw .invalidRequest("devicePublicKey is not a P-256 point.")
            }
            publicKeyText = layer2.devicePublicKey ?? ""
            func bounded(_ value: String?, _ field: String, _ limit: Int) throws(PowerAuthFailure) -> String? {
                guard let value else { return nil }
                guard value.utf8.count <= limit else { throw .invalidRequest("\(field) is longer than \(limit) bytes.") }
                return value
            }
            name = try bounded(layer2.activationName, "activationName", 255)
            otp = try bounded(layer2.activationOtp, "activationOtp", 64)
            platform = try bounded(layer2.platform, "platform", 64)
            deviceInfo = try bounded(layer2.deviceInfo, "deviceInfo", 255)
            extras = try bounded(layer2.extras, "extras", 4096)
        }
    }

    private func activateByCode(identity: [String: String], device: DeviceDetails, credentials: PowerAuthCredentials)
        async throws -> ActivationLayer2Response
    {
        guard let text = identity["code"] else { throw PowerAuthFailure.invalidRequest("identityAttributes.code is required.") }
        let code: ActivationCode
        do {
            code = try ActivationCode(text)
        } catch {
            throw PowerAuthFailure.activation("The activation code is malformed.")
        }
        let lookup = secrets.hash(code.value, purpose: "activation-code")
        let now = clock.now().epochMilliseconds
        let secrets = self.secrets
        let outcome: Result<ActivationLayer2Response, PowerAuthFailure> = try await database.write { repositories in
            guard var activation = try await repositories.powerAuthActivations.find(codeLookup: lookup),
                activation.applicationId == credentials.record.applicationId, activation.status == .created
            else { return .failure(.activation("The activation code is not valid.")) }
            guard let expiresAt = activation.codeExpiresAt, now < expiresAt else {
                return .failure(.activation("The activation code has expired."))
            }
            if activation.commitMode == .automatic, let otpHash = activation.otpHash {
                guard let otp = device.otp, secrets.matches(otp, purpose: "otp:\(activation.id)", stored: otpHash) else {
                    activation.otpAttempts += 1
                    activation.updatedAt = now
                    if activation.otpAttempts >= Self.maxOtpAttempts {
                        activation.status = .removed
                        activation.codeLookup = nil
                        activation.removedAt = now
                    }
                    try await repositories.powerAuthActivations.update(activation)
                    return .failure(.activation("The activation OTP is not right."))
                }
            }
            let answer = try Self.exchangeKeys(
                &activation, device: device, status: activation.commitMode == .automatic ? .active : .pendingCommit,
                now: now, secrets: secrets)
            try await repositories.powerAuthActivations.update(activation)
            return .success(
                try await Self.withRecovery(answer, activation: activation, credentials: credentials, secrets: secrets, in: repositories))
        }
        return try outcome.get()
    }

    /// Activation by a recovery code and its current PUK: the code must be ACTIVE (a postcard's
    /// only once confirmed), the PUK the lowest-indexed valid one. A wrong PUK counts (the code is
    /// BLOCKED at its maximum) and answers the current PUK's index; the right one is used up, the
    /// activation the code was handed out with and the one it recovered before are removed, and
    /// the new activation is made — all in one transaction. A code whose last PUK is used is
    /// REVOKED.
    private func activateByRecovery(identity: [String: String], device: DeviceDetails, credentials: PowerAuthCredentials)
        async throws -> ActivationLayer2Response
    {
        guard let codeText = identity["recoveryCode"], let pukText = identity["puk"] else {
            throw PowerAuthFailure.invalidRequest("identityAttributes.recoveryCode and identityAttributes.puk are required.")
        }
        let code: RecoveryCode
        let puk: RecoveryPUK
        do {
            code = try RecoveryCode(codeText)
            puk = try RecoveryPUK(pukText)
        } catch {
            throw PowerAuthFailure.activation("The recovery code or PUK is malformed.")
        }
        let lookup = secrets.hash(code.code.value, purpose: PowerAuthRecoveryCodes.codePurpose)
        let now = clock.now().epochMilliseconds
        let secrets = self.secrets
        let outcome: Result<ActivationLayer2Response, PowerAuthFailure> = try await database.write { repositories in
            guard var recovery = try await repositories.powerAuthRecoveryCodes.find(codeLookup: lookup),
                recovery.applicationId == credentials.record.applicationId
            else { return .failure(.activation("The recovery code is not valid.")) }
            switch recovery.status {
            case .active: break
            case .created: return .failure(.activation("The recovery code is not confirmed yet: confirm it from an activated device first."))
            case .blocked: return .failure(.activation("The recovery code is blocked after too many wrong PUKs."))
            case .revoked: return .failure(.activation("The recovery code is revoked or used up."))
            }
            let puks = try await repositories.powerAuthRecoveryCodes.puks(recoveryCodeId: recovery.id)
            guard let current = PowerAuthRecoveryCodes.current(puks) else {
                recovery.status = .revoked
                recovery.updatedAt = now
                try await repositories.powerAuthRecoveryCodes.update(recovery)
                return .failure(.activation("The recovery code is revoked or used up."))
            }
            guard secrets.matches(
                puk.value, purpose: PowerAuthRecoveryCodes.pukPurpose(codeId: recovery.id, index: current.index),
                stored: current.pukHash)
            else {
                recovery.failedAttempts += 1
                recovery.updatedAt = now
                if recovery.failedAttempts >= recovery.maxFailedAttempts { recovery.status = .blocked }
                try await repositories.powerAuthRecoveryCodes.update(recovery)
                var failure = PowerAuthFailure.activation(
                    recovery.status == .blocked
                        ? "The PUK is not right; the recovery code is now blocked."
                        : "The PUK is not right (PUK #\(current.index) is expected); \(recovery.maxFailedAttempts - recovery.failedAttempts) attempts remain.")
                failure.currentRecoveryPukIndex = current.index
                return .failure(failure)
            }
            try await repositories.powerAuthRecoveryCodes.updatePuk(
                recoveryCodeId: recovery.id, index: current.index, status: .used)
            for previousId in [recovery.activationId, recovery.recoveredActivationId].compactMap({ $0 }) {
                guard var previous = try await repositories.powerAuthActivations.find(id: previousId),
                    previous.status != .removed
                else { continue }
                previous.status = .removed
                previous.removedAt = now
                previous.updatedAt = now
                previous.codeLookup = nil
                try await repositories.powerAuthActivations.update(previous)
            }
            let answer = try await Self.insertNew(
                userId: recovery.userId, device: device, credentials: credentials, now: now, secrets: secrets,
                in: repositories)
            recovery.failedAttempts = 0
            recovery.recoveredActivationId = answer.activationId
            recovery.updatedAt = now
            if !puks.contains(where: { $0.status == .valid && $0.index != current.index }) { recovery.status = .revoked }
            try await repositories.powerAuthRecoveryCodes.update(recovery)
            return .success(answer)
        }
        return try outcome.get()
    }

    /// A new activation for `userId`, active at once (custom credentials).
    private func activateNew(userId: String, device: DeviceDetails, credentials: PowerAuthCredentials)
        async throws -> ActivationLayer2Response
    {
        let now = clock.now().epochMilliseconds
        let secrets = self.secrets
        return try await database.write { repositories in
            try await Self.insertNew(
                userId: userId, device: device, credentials: credentials, now: now, secrets: secrets, in: repositories)
        }
    }

    /// Inserts a new `ACTIVE` activation for `userId` with its keys (and recovery code), in the
    /// caller's transaction.
    private static func insertNew(
        userId: String, device: DeviceDetails, credentials: PowerAuthCredentials, now: Int64, secrets: PowerAuthSecrets,
        in repositories: Repositories
    ) async throws -> ActivationLayer2Response {
        var activation = PowerAuthActivationRecord(
            id: UUID().uuidString.lowercased(), applicationId: credentials.record.applicationId, userId: userId,
            status: .created, codeLookup: nil, codeExpiresAt: nil, otpHash: nil, otpAttempts: 0,
            commitMode: .automatic, devicePublicKey: nil, serverPublicKey: nil, sealedServerPrivateKey: nil,
            counterData: nil, counter: 0, failedAttempts: 0, maxFailedAttempts: credentials.record.maxFailedAttempts,
            name: nil, platform: nil, deviceInfo: nil, extras: nil, fingerprint: nil, blockedReason: nil,
            createdAt: now, updatedAt: now, lastUsedAt: nil, removedAt: nil)
        let answer = try exchangeKeys(&activation, device: device, status: .active, now: now, secrets: secrets)
        try await repositories.powerAuthActivations.insert(activation)
        return try await withRecovery(answer, activation: activation, credentials: credentials, secrets: secrets, in: repositories)
    }

    /// The server's half of the key exchange: a new key pair, the first counter value, the
    /// fingerprint, the device's details.
    private static func exchangeKeys(
        _ activation: inout PowerAuthActivationRecord, device: DeviceDetails, status: PowerAuthActivationStatus,
        now: Int64, secrets: PowerAuthSecrets
    ) throws -> ActivationLayer2Response {
        let serverKey = P256.KeyAgreement.PrivateKey()
        let counterData = PowerAuthHashCounter.random()
        activation.status = status
        activation.codeLookup = nil
        activation.devicePublicKey = device.publicKeyText
        activation.serverPublicKey = serverKey.publicKey.x963Representation.base64EncodedString()
        activation.sealedServerPrivateKey = try secrets.seal(serverKey, purpose: PowerAuthSecrets.Purpose.serverKey(activation.id))
        activation.counterData = counterData.base64EncodedString()
        activation.counter = 0
        activation.failedAttempts = 0
        activation.name = device.name ?? activation.name
        activation.platform = device.platform
        activation.deviceInfo = device.deviceInfo
        activation.extras = device.extras
        activation.fingerprint = PublicKeyFingerprint.v3(
            devicePublicKey: device.publicKey, activationID: activation.id, serverPublicKey: serverKey.publicKey)
        activation.updatedAt = now
        return ActivationLayer2Response(
            activationId: activation.id, serverPublicKey: activation.serverPublicKey ?? "",
            ctrData: counterData.base64EncodedString(), activationRecovery: nil)
    }

    /// Adds a new recovery code and PUK when the application hands them out.
    private static func withRecovery(
        _ answer: ActivationLayer2Response, activation: PowerAuthActivationRecord, credentials: PowerAuthCredentials,
        secrets: PowerAuthSecrets, in repositories: Repositories
    ) async throws -> ActivationLayer2Response {
        guard credentials.record.recoveryEnabled else { return answer }
        let (code, puk) = try await PowerAuthRecoveryCodes.insertBound(activation: activation, secrets: secrets, in: repositories)
        var answer = answer
        answer.activationRecovery = .init(recoveryCode: code, puk: puk)
        return answer
    }

    // MARK: - Status

    /// The activation's status blob, encrypted with the client's challenge and a fresh nonce.
    func status(body: Data) async throws -> ActivationStatusResponse {
        let request = try PowerAuthJSON.decode(PowerAuthRequestEnvelope<ActivationStatusRequest>.self, from: body).requestObject
        let activationId = try PowerAuthField.identifier(request.activationId, field: "activationId")
        let challenge = try PowerAuthField.base64(request.challenge, field: "challenge", count: [16], maxLength: 64)
        guard let activation = try await database.read({ try await $0.powerAuthActivations.find(id: activationId) }),
            activation.sealedServerPrivateKey != nil, let counterText = activation.counterData,
            let counterData = Data(base64Encoded: counterText)
        else { throw PowerAuthFailure.activation("No activation has this ID.") }
        let keys = try PowerAuthActivationKeys(activation: activation, secrets: secrets)
        let blob = try ActivationStatusBlob(
            state: activation.status.blobState, counterByte: UInt8(truncatingIfNeeded: activation.counter),
            failedAttempts: UInt8(clamping: activation.failedAttempts),
            maxFailedAttempts: UInt8(clamping: activation.maxFailedAttempts),
            counterLookAhead: UInt8(PowerAuthProtocol.lookAhead),
            counterDataHash: ActivationStatusBlob.counterDataHash(counterData, transportKey: keys.derived.transport))
        let nonce = Data(SecureRandom.bytes(16))
        let encrypted = try blob.encrypted(transportKey: keys.derived.transport, challenge: challenge, nonce: nonce)
        return ActivationStatusResponse(
            activationId: activation.id, encryptedStatusBlob: encrypted.base64EncodedString(),
            nonce: nonce.base64EncodedString(), customObject: [:])
    }
}

extension PowerAuthActivationStatus {
    /// The state byte of the status blob.
    var blobState: ActivationState {
        switch self {
        case .created: .created
        case .pendingCommit: .pendingCommit
        case .active: .active
        case .blocked: .blocked
        case .removed: .removed
        }
    }
}
