import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire
import Logging

/// What a device does with a signed request: remove its activation, unlock its vault.
struct PowerAuthDeviceService: Sendable {
    /// How the service's signed (and encrypted) requests are read: its database, clock,
    /// signature verifier and keystore.
    let signed: PowerAuthSignedEncryption
    let logger: Logger

    /// `POST /pa/v3/activation/remove`: a two-factor signature over the body, uriId
    /// `/pa/activation/remove`.
    func remove(authorization: String?, body: Data) async throws {
        let verified = try await signed.verifier.verify(
            header: authorization, method: "POST", uriId: PowerAuthEndpoint.activationRemove.uriId, body: body,
            required: PowerAuthEndpoint.activationRemove.factors.accepts
        ) { activationId, repositories, now in
            guard var activation = try await repositories.powerAuthActivations.find(id: activationId) else { return }
            activation.status = .removed
            activation.removedAt = now
            activation.updatedAt = now
            try await repositories.powerAuthActivations.update(activation)
        }
        logger.notice("powerauth: activation removed by its device", metadata: ["activation": "\(verified.activation.id)"])
    }

    /// The published reasons a device unlocks its vault for.
    static let vaultUnlockReasons: Set<String> = [
        "ADD_BIOMETRY", "FETCH_ENCRYPTION_KEY", "SIGN_WITH_DEVICE_PRIVATE_KEY", "RECOVERY_CODE",
    ]

    /// `POST /pa/v3/vault/unlock`: a two-factor signature over the encrypted body (uriId
    /// `/pa/vault/unlock`), then the body opened in activation scope (sharedInfo1
    /// `/pa/vault/unlock`), answered with `KEY_ENCRYPTION_VAULT` under `KEY_TRANSPORT`, sealed.
    func unlockVault(authorization: String?, body: Data) async throws -> EciesEnvelope {
        let opened = try await signed.open(.vaultUnlock, authorization: authorization, body: body)
        let (verified, activation, context) = (opened.verified, opened.activation, opened.context)
        let unlock = try PowerAuthJSON.decode(VaultUnlockRequest.self, from: opened.plaintext)
        if let reason = unlock.reason, !Self.vaultUnlockReasons.contains(reason) {
            throw PowerAuthFailure.invalidRequest(
                "reason is one of \(Self.vaultUnlockReasons.sorted().joined(separator: ", ")).")
        }
        let encryptedKey = try PowerAuthKeyProtection.encryptVaultKey(
            verified.keys.derived.vaultEncryption, transportKey: verified.keys.derived.transport)
        logger.notice(
            "powerauth: vault unlocked",
            metadata: ["activation": "\(activation.id)", "reason": "\(unlock.reason ?? "")"])
        return try context.seal(
            try PowerAuthJSON.encode(
                VaultUnlockResponse(activationId: activation.id, encryptedVaultEncryptionKey: encryptedKey.base64EncodedString())),
            now: signed.clock.now())
    }
}
