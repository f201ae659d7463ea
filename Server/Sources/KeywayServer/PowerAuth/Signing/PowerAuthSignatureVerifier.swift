import Crypto
import Foundation
import KeywayJOSE
import KeywayPowerAuth
import Logging

/// Verifies the `X-PowerAuth-Authorization` signature of a request: version 3.3 (Base64
/// components), a look-ahead window of 20 over the hash-based counter, a failure counted (the
/// counter left where it is: a failed signature — a replayed header among them — proves nothing
/// about where the device's counter is, and the window finds the device's next signature ahead, as
/// the PowerAuth server's `handleInvalidSignatureImpl` does), a success resetting the count unless
/// it proved possession alone, `BLOCKED` at the maximum. The counter is written back only if it is
/// still the value the verification read, so two verifications of one activation never both
/// accept one counter value. On the device API a failure counts only while the client's network
/// is within ``RateLimits/powerAuthFailuresPerActivation`` and
/// ``RateLimits/powerAuthFailuresPerAddress``; past them it is refused `429`, uncounted.
struct PowerAuthSignatureVerifier: Sendable {
    let database: any Database
    let clock: any ServerClock
    let secrets: PowerAuthSecrets
    let logger: Logger
    var rateLimits = RateLimits()

    /// A verified signature.
    struct Verified: Sendable {
        let activation: PowerAuthActivationRecord
        let credentials: PowerAuthCredentials
        let keys: PowerAuthActivationKeys
        let factors: PowerAuthSignatureFactors
    }

    /// The reason an activation is blocked when the failures reach the maximum.
    static let maxFailedAttemptsReason = "MAX_FAILED_ATTEMPTS"

    /// Verifies the request's signature over `method`, `uriId` and `body`. `required` says which
    /// factor combinations the endpoint accepts (checked before anything is counted); `accepted`
    /// runs in the transaction that accepts the signature (a removal, so that both commit or
    /// neither does).
    func verify(
        header: String?, method: String, uriId: String, body: Data,
        required: (PowerAuthSignatureFactors) -> Bool = { _ in true }, throttled: Bool = true,
        accepted: (@Sendable (_ activationId: String, Repositories, _ now: Int64) async throws -> Void)? = nil
    ) async throws -> Verified {
        let authorization = try PowerAuthRequestHeader.authorization(header)
        guard required(authorization.factors) else {
            throw PowerAuthFailure.authentication("This endpoint needs a signature with other factors.")
        }
        return try await verify(
            activationId: authorization.activationID, applicationKey: authorization.applicationKey,
            factors: authorization.factors, signature: authorization.signature, format: .v31,
            network: throttled ? RequestClient.address.map(ClientAddress.hash) : nil, accepted: accepted
        ) { credentials in
            PowerAuthSignature.signedData(
                requestData: PowerAuthSignature.requestData(
                    method: method, uriIdentifier: uriId, nonce: authorization.nonce, body: body),
                applicationSecret: credentials.applicationSecret)
        }
    }

    /// The URI identifier of offline signatures.
    static let offlineURIIdentifier = "/operation/authorize/offline"

    /// Verifies an offline signature (decimal components of eight digits, one per factor, over
    /// `POST`, ``offlineURIIdentifier``, `nonce`, `data` and the application secret `offline`)
    /// with exactly `factors`, with the same window, counting and blocking as online signatures
    /// (an app's backend asks, for its users: not throttled by network).
    func verifyOffline(
        activationId: String, factors: PowerAuthSignatureFactors, data: Data, nonce: Data, signature: String
    ) async throws -> Verified {
        try await verify(
            activationId: activationId, applicationKey: nil, factors: factors, signature: signature,
            format: .decimal(digits: 8), network: nil, accepted: nil
        ) { _ in
            PowerAuthSignature.offlineSignedData(uriIdentifier: Self.offlineURIIdentifier, nonce: nonce, data: data)
        }
    }

    /// The verification both kinds share: the activation must be active (and of the application
    /// `applicationKey` names, when one is named); the signature is looked for in the window from
    /// the stored counter; the outcome is written back only over the counter that was read. A
    /// failure from `network` past its limits is refused uncounted.
    private func verify(
        activationId: String, applicationKey: String?, factors: PowerAuthSignatureFactors, signature: String,
        format: PowerAuthSignatureFormat, network: String?,
        accepted: (@Sendable (_ activationId: String, Repositories, _ now: Int64) async throws -> Void)?,
        signedData: (PowerAuthCredentials) -> Data
    ) async throws -> Verified {
        let secrets = self.secrets
        let (activation, credentials) = try await database.read { repositories in
            guard let activation = try await repositories.powerAuthActivations.find(id: activationId),
                let record = try await repositories.powerAuthApplications.find(applicationId: activation.applicationId)
            else { throw PowerAuthFailure.authentication("The activation is unknown.") }
            return (activation, try PowerAuthCredentials.open(record, secrets: secrets))
        }
        if let applicationKey {
            guard ConstantTime.equals(credentials.record.applicationKey, applicationKey) else {
                throw PowerAuthFailure.authentication("The application key is not the activation's.")
            }
        }
        guard activation.status == .active, activation.sealedServerPrivateKey != nil else {
            throw PowerAuthFailure.authentication("The activation is not active.")
        }
        let keys = try PowerAuthActivationKeys(activation: activation, secrets: secrets)
        let signatureKeys = keys.derived.signatureKeys(for: factors)
        let data = signedData(credentials)
        let possessionOnly = factors == .possession
        let rateLimits = self.rateLimits
        for _ in 0..<8 {
            let now = clock.now().epochMilliseconds
            let outcome: Outcome = try await database.write { repositories in
                guard let current = try await repositories.powerAuthActivations.find(id: activation.id),
                    current.status == .active, let counterText = current.counterData,
                    let counterData = Data(base64Encoded: counterText)
                else { return .refused(.authentication("The activation is not active.")) }
                let match = try PowerAuthSignature.verify(
                    signature: signature, data: data, keys: signatureKeys, counterData: counterData,
                    lookAhead: PowerAuthProtocol.lookAhead, format: format)
                if let match {
                    let written = try await repositories.powerAuthActivations.recordSignature(
                        id: current.id, expectedCounterData: counterText,
                        counterData: match.nextCounterData.base64EncodedString(),
                        counter: current.counter + Int64(match.counterOffset) + 1,
                        failedAttempts: possessionOnly ? current.failedAttempts : 0, status: .active,
                        blockedReason: nil, now: now)
                    guard written else { return .raced }
                    try await accepted?(current.id, repositories, now)
                    return .accepted(current)
                }
                if let network, let retryAt = try await Self.throttle(network, activationId: current.id, rateLimits, now, repositories) {
                    self.logger.notice("powerauth: failed signatures throttled", metadata: ["activation": "\(current.id)"])
                    return .refused(.throttled(retryAfterSeconds: max(1, Int((retryAt - now + 999) / 1000))))
                }
                let failed = current.failedAttempts + 1
                let blocks = failed >= current.maxFailedAttempts
                let written = try await repositories.powerAuthActivations.recordSignature(
                    id: current.id, expectedCounterData: counterText, counterData: counterText,
                    counter: current.counter, failedAttempts: failed, status: blocks ? .blocked : .active,
                    blockedReason: blocks ? Self.maxFailedAttemptsReason : nil, now: now)
                guard written else { return .raced }
                if blocks {
                    self.logger.notice("powerauth: activation blocked", metadata: ["activation": "\(current.id)"])
                }
                return .refused(.authentication())
            }
            switch outcome {
            case .accepted(let current):
                return Verified(activation: current, credentials: credentials, keys: keys, factors: factors)
            case .refused(let failure):
                throw failure
            case .raced:
                continue
            }
        }
        throw PowerAuthFailure.authentication("The activation is busy: try again.")
    }

    /// Counts one failure of `network` (for the activation and over all); the end of the window
    /// when either limit is passed, `nil` while the failure may count.
    private static func throttle(
        _ network: String, activationId: String, _ limits: RateLimits, _ now: Int64, _ repositories: Repositories
    ) async throws -> Int64? {
        let window = Int64(limits.window * 1000)
        var retryAt: Int64?
        for (bucket, limit) in [
            ("pa-fail-ip:\(network):\(activationId)", limits.powerAuthFailuresPerActivation),
            ("pa-fail-ip:\(network)", limits.powerAuthFailuresPerAddress),
        ] where limit > 0 {
            let (hits, windowStart) = try await repositories.rateLimits.hit(bucket: bucket, now: now, window: window)
            if hits > Int64(limit) { retryAt = max(retryAt ?? 0, windowStart + window) }
        }
        return retryAt
    }

    private enum Outcome: Sendable {
        case accepted(PowerAuthActivationRecord)
        case refused(PowerAuthFailure)
        /// Another verification moved the counter first: read it again.
        case raced
    }
}
