import Crypto
import Foundation
import KeywayPowerAuth

/// Recovery codes and their PUKs at rest: a code as its keyed hash (looked up by it), each PUK as
/// its keyed hash under the code's ID and the PUK's index, PUKs used in order.
enum PowerAuthRecoveryCodes {
    /// Wrong PUKs before a code is blocked.
    static let maxFailedAttempts = 5
    /// How many PUKs a postcard has unless asked otherwise, and at most.
    static let defaultPukCount = 5
    static let pukCounts = 1...100

    /// The keyed-hash purpose of a code's lookup.
    static let codePurpose = "recovery-code"

    /// The keyed-hash purpose of PUK `index` (PUK #1 keeps the purpose of the single-PUK codes
    /// made before postcards existed).
    static func pukPurpose(codeId: String, index: Int) -> String {
        index == 1 ? "recovery-puk:\(codeId)" : "recovery-puk:\(codeId):\(index)"
    }

    /// A new code handed out with an activation: ACTIVE at once, one PUK. Inserted in the caller's
    /// transaction; answers the code and the PUK in clear (shown once, in the activation's answer).
    static func insertBound(
        activation: PowerAuthActivationRecord, secrets: PowerAuthSecrets, in repositories: Repositories
    ) async throws -> (code: String, puk: String) {
        let id = SecureRandom.identifier(prefix: "parc")
        var code = ActivationCode.random().value
        while try await repositories.powerAuthRecoveryCodes.find(codeLookup: secrets.hash(code, purpose: codePurpose)) != nil {
            code = ActivationCode.random().value
        }
        let puk = SecureRandom.numericCode(digits: 10)
        try await repositories.powerAuthRecoveryCodes.insert(
            PowerAuthRecoveryCodeRecord(
                id: id, applicationId: activation.applicationId, userId: activation.userId, activationId: activation.id,
                codeLookup: secrets.hash(code, purpose: codePurpose), status: .active, failedAttempts: 0,
                maxFailedAttempts: maxFailedAttempts, recoveredActivationId: nil, createdAt: activation.updatedAt,
                updatedAt: activation.updatedAt),
            puks: [
                PowerAuthRecoveryPukRecord(
                    recoveryCodeId: id, index: 1, pukHash: secrets.hash(puk, purpose: pukPurpose(codeId: id, index: 1)),
                    status: .valid)
            ])
        return (code, puk)
    }

    /// A postcard's code and PUKs, derived as Recovery-Postcard.md describes in its random
    /// shared-secret mode: a random 32-byte secret and nonce, the code from the first 10 bytes of
    /// `KDF_X9_63_SHA256(secret, nonce)`, each PUK from the PUK base key with a random derivation
    /// index (distinct PUKs). The secret, the nonce and the indexes are forgotten at once.
    static func derivePostcard(pukCount: Int, isTaken: (RecoveryCode) async throws -> Bool) async throws
        -> (code: RecoveryCode, puks: [RecoveryPUK])
    {
        var derived: RecoveryPostcard.Derived
        repeat {
            derived = try RecoveryPostcard.derive(
                sharedSecret: Data(SecureRandom.bytes(32)), nonce: Data(SecureRandom.bytes(32)))
        } while try await isTaken(derived.recoveryCode)
        var puks: [RecoveryPUK] = []
        while puks.count < pukCount {
            let index = SecureRandom.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let puk = try RecoveryPUK.derive(baseKey: derived.pukBaseKey, index: index)
            if !puks.contains(puk) { puks.append(puk) }
        }
        return (derived.recoveryCode, puks)
    }

    /// The PUK a recovery must use now: the lowest-indexed valid one.
    static func current(_ puks: [PowerAuthRecoveryPukRecord]) -> PowerAuthRecoveryPukRecord? {
        puks.filter { $0.status == .valid }.min { $0.index < $1.index }
    }
}
