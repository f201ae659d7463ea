import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging

/// App Attest on the server: challenges, registration of attested keys, and the check of the
/// assertions that device enrolment and token requests carry, as the application's
/// ``AppAttestSettings`` ask.
struct AppAttestService: Sendable {
    let database: any Database
    let clock: any ServerClock
    let verifier: AppAttestVerifier
    /// Challenges count against the flow starts one client address may make.
    let limits: FlowLimits
    let logger: Logger

    /// How long a challenge can be attested against.
    static let challengeLifetime: TimeInterval = 5 * 60

    /// A new single-use challenge for the application of `configId`; a client address gets as
    /// many in the rate-limit window as it may start flows.
    func challenge(configId: String?, clientAddress: String? = nil) async throws -> AppAttestChallenge {
        let now = clock.now()
        let expiresAt = now.addingTimeInterval(Self.challengeLifetime)
        let challenge = SecureRandom.token(prefix: "kac")
        let rates = limits.rateLimits
        try await database.write { repositories in
            let application = try await Self.application(configId, in: repositories)
            if let address = clientAddress.map(ClientAddress.hash), rates.flowStartsPerAddress > 0 {
                let window = Int64((rates.window * 1000).rounded())
                let (hits, windowStart) = try await repositories.rateLimits.hit(
                    bucket: "attest-ip:\(address)", now: now.epochMilliseconds, window: window)
                if hits > Int64(rates.flowStartsPerAddress) {
                    throw FlowProblem.rateLimited(until: windowStart + window, now: now.epochMilliseconds)
                }
            }
            try await repositories.appAttest.insertChallenge(
                challenge, applicationId: application.id, expiresAt: expiresAt.epochMilliseconds)
        }
        return AppAttestChallenge(challenge: challenge, expiresAt: expiresAt)
    }

    /// Verifies an attestation made for one of the application's challenges and keeps the key.
    func register(configId: String?, request: AppAttestKeyRequest) async throws -> AppAttestKeyResponse {
        guard let keyID = Self.keyID(request.keyID) else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "keyId", reason: "Send the key ID generateKey() returned (base64 of 32 bytes).")
            ])
        }
        guard request.attestation.utf8.count <= 64_000, let attestation = Base64URL.decode(request.attestation) else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "attestation", reason: "Send the attestation object, base64url.")
            ])
        }
        guard !request.challenge.isEmpty, request.challenge.utf8.count <= 200 else {
            throw FlowProblem.invalidRequest([InvalidField(name: "challenge", reason: "Send the challenge you attested.")])
        }
        let now = clock.now()
        let (application, settings) = try await database.read { repositories in
            let application = try await Self.application(configId, in: repositories)
            let policy = try await repositories.policies.policy(applicationId: application.id)
            return (application, policy?.appAttest ?? AppAttestSettings())
        }
        guard settings.enabled else {
            throw FlowProblem(
                .invalidRequest, status: 400, title: "App Attest not enabled",
                detail: "This application does not use App Attest: enable it in the application's policy.",
                action: .abort)
        }
        // The challenge is used up whatever the outcome, in its own transaction: a refused
        // attestation cannot be retried with it.
        let fresh = try await database.write { repositories in
            try await repositories.appAttest.consumeChallenge(
                request.challenge, applicationId: application.id, now: now.epochMilliseconds)
        }
        guard fresh else {
            throw FlowProblem(
                .invalidAppAttest, status: 400, title: "Challenge not valid",
                detail: "The challenge is unknown, expired or used: ask for a new one.", action: .retryInput,
                invalidFields: [InvalidField(name: "challenge", reason: "Ask for a new challenge.")])
        }
        let key: AttestedKey
        do {
            key = try await verifier.verifyAttestation(
                attestation, keyID: keyID, clientDataHash: Data(SHA256.hash(data: Data(request.challenge.utf8))),
                appIDs: settings.appIDs, environment: settings.environment, now: now)
        } catch {
            logger.notice(
                "app attestation refused", metadata: ["application": "\(application.id)", "reason": "\(error.code)"])
            throw Self.refusal(error, field: "attestation")
        }
        try await database.write { repositories in
            try await repositories.appAttest.insertKey(key, applicationId: application.id, now: now.epochMilliseconds)
        }
        logger.info("app attest key registered", metadata: ["application": "\(application.id)"])
        return AppAttestKeyResponse(keyID: request.keyID, environment: key.environment.rawValue)
    }

    /// What an App Attest check concluded.
    enum Outcome: Equatable {
        /// The application does not ask for App Attest here.
        case notAsked
        /// No proof came, and the application lets the request go on unattested.
        case unattested
        /// A registered key of a genuine app instance signed the client data.
        case attested
    }

    /// Checks `evidence` over `clientData` for the application, inside the caller's transaction
    /// (the key's counter moves forward with it).
    ///
    /// - Parameter asked: Whether the settings ask for App Attest at this point.
    /// - Throws: `app_attest_required` when no proof came and the settings refuse that;
    ///   `invalid_app_attest` when the proof fails a check.
    func check(
        _ evidence: AppAttestEvidence?, clientData: Data, settings: AppAttestSettings, asked: Bool,
        applicationId: String, in repositories: Repositories
    ) async throws -> Outcome {
        guard settings.enabled, asked else { return .notAsked }
        guard let evidence else {
            guard settings.whenUnavailable == .refuse else { return .unattested }
            throw FlowProblem(
                .appAttestRequired, status: 403, title: "App Attest required",
                detail: "This application accepts this only from an app instance that proves itself with App Attest.",
                action: .retryInput)
        }
        guard let keyID = Self.keyID(evidence.keyID), evidence.assertion.utf8.count <= 4_000,
            let assertion = Base64URL.decode(evidence.assertion)
        else { throw Self.refusal(.malformed("the key ID or the assertion is not encoded as specified"), field: "appAttest") }
        guard let (key, counter) = try await repositories.appAttest.key(keyID, applicationId: applicationId) else {
            throw Self.refusal(.unknownKey, field: "appAttest")
        }
        let next: UInt32
        do {
            next = try verifier.verifyAssertion(
                assertion, clientDataHash: Data(SHA256.hash(data: clientData)), key: key, previousCounter: counter)
        } catch {
            logger.notice("app attest assertion refused", metadata: ["application": "\(applicationId)", "reason": "\(error.code)"])
            throw Self.refusal(error, field: "appAttest")
        }
        guard
            try await repositories.appAttest.advanceCounter(
                keyID, applicationId: applicationId, to: next, now: clock.now().epochMilliseconds)
        else { throw Self.refusal(.counterNotIncreasing, field: "appAttest") }
        return .attested
    }

    /// The problem a refused attestation or assertion answers with.
    static func refusal(_ failure: AppAttestFailure, field: String) -> FlowProblem {
        FlowProblem(
            .invalidAppAttest, status: 400, title: "App Attest refused (\(failure.code))", detail: failure.message,
            action: .retryInput, invalidFields: [InvalidField(name: field, reason: failure.message)])
    }

    /// A key ID as the app sends it (base64 or base64url of 32 bytes).
    static func keyID(_ text: String) -> Data? {
        guard text.utf8.count <= 64 else { return nil }
        let url = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        guard let data = Base64URL.decode(url), data.count == 32 else { return nil }
        return data
    }

    private static func application(_ configId: String?, in repositories: Repositories) async throws
        -> ApplicationRecord
    {
        guard let configId, !configId.isEmpty else { throw FlowProblem.missingConfigId }
        guard let application = try await repositories.applications.find(configId: configId) else {
            throw FlowProblem.unknownConfigId
        }
        return application
    }
}
