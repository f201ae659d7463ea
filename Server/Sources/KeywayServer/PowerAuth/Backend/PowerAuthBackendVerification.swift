import Crypto
import Foundation
import KeywayPowerAuth
import KeywayProtocol
import Logging

/// What an app's own backend asks about device signatures, authenticated as a confidential
/// application: whether a request's `X-PowerAuth-Authorization` header signs exactly that request
/// with the factors an operation needs, and the QR data and verification of offline signatures.
/// A backend may only ask about activations of its own project; an activation of another project
/// is answered as unknown and nothing of it is counted.
struct PowerAuthBackendVerification: Sendable {
    let database: any Database
    let clock: any ServerClock
    let verifier: PowerAuthSignatureVerifier
    let logger: Logger

    /// The largest signed body a backend may send (Base64 of at most 1 MiB).
    static let maxSignedBody = 1024 * 1024

    /// `POST /v1/powerauth/signatures/verify`.
    struct OnlineRequest: Decodable, Sendable {
        var method: String
        var uriId: String
        var body: String?
        var authorization: String
        var requiredFactors: String?
    }

    /// `POST /v1/powerauth/offline-payloads`.
    struct PayloadRequest: Decodable, Sendable {
        var activationId: String
        var data: String
    }

    /// `POST /v1/powerauth/offline-signatures/verify`.
    struct OfflineRequest: Decodable, Sendable {
        var activationId: String
        var data: String
        var nonce: String
        var signature: String
        var requiredFactors: String?
    }

    /// The answer of both verifications.
    struct Answer: Encodable, Sendable {
        struct Refusal: Encodable, Sendable {
            var code: String
            var message: String
        }
        var valid: Bool
        var activationId: String?
        var userId: String?
        var factors: String?
        var status: String?
        var remainingAttempts: Int?
        var error: Refusal?
    }

    /// The QR data of an offline signature request.
    struct Payload: Encodable, Sendable {
        var qrData: String
        var nonce: String
    }

    // MARK: Online

    func verify(_ request: OnlineRequest, caller: ApplicationRecord) async throws -> Answer {
        guard !request.method.isEmpty, request.method.utf8.count <= 16,
            request.method.utf8.allSatisfy({ (0x41...0x5A).contains($0) })
        else { throw OAuthFailure.invalidRequest("method must be an upper-case HTTP method.") }
        guard !request.uriId.isEmpty, request.uriId.utf8.count <= 512 else {
            throw OAuthFailure.invalidRequest("uriId must be 1 to 512 bytes.")
        }
        let body: Data
        if let text = request.body, !text.isEmpty {
            guard text.utf8.count <= (Self.maxSignedBody / 3 + 1) * 4, let decoded = Data(base64Encoded: text) else {
                throw OAuthFailure.invalidRequest("body must be the Base64 of at most 1 MiB.")
            }
            body = decoded
        } else {
            body = Data()
        }
        let required = try Self.factors(request.requiredFactors, default: .possession)
        let parsed = Result { () throws(PowerAuthFailure) in try PowerAuthRequestHeader.authorization(request.authorization) }
        guard case .success(let header) = parsed else {
            if case .failure(let failure) = parsed {
                return Answer(valid: false, error: .init(code: "malformed_signature", message: failure.message))
            }
            throw OAuthFailure.serverError
        }
        guard let activation = try await activation(header.activationID, of: caller) else {
            return Self.unknownActivation
        }
        guard header.factors.isSuperset(of: required) else {
            return Answer(
                valid: false, activationId: activation.id, userId: activation.userId,
                status: activation.status.rawValue,
                remainingAttempts: max(0, activation.maxFailedAttempts - activation.failedAttempts),
                error: .init(
                    code: "insufficient_factors",
                    message: "The signature proves \(header.factors.typeName), the operation needs \(required.typeName)."))
        }
        return try await outcome(activation) {
            // The backend asks for its users from its own network: not throttled by network.
            try await verifier.verify(
                header: request.authorization, method: request.method, uriId: request.uriId, body: body, throttled: false)
        }
    }

    // MARK: Offline

    func payload(_ request: PayloadRequest, caller: ApplicationRecord) async throws -> Payload {
        try Self.checkData(request.data)
        guard let activation = try await activation(request.activationId, of: caller) else {
            throw OAuthFailure.invalidRequest("The activation is unknown.")
        }
        guard activation.status == .active else {
            throw OAuthFailure.invalidRequest("The activation is \(activation.status.rawValue), not ACTIVE.")
        }
        let keys = try PowerAuthActivationKeys(activation: activation, secrets: verifier.secrets)
        let nonce = Data(SecureRandom.bytes(16)).base64EncodedString()
        // Key flag 1: signed by the activation's server key (0 would be the master server key).
        let signed = "\(request.data)\n\(nonce)\n1"
        let signature = try keys.signingKey.signature(for: Data(signed.utf8))
        return Payload(qrData: signed + signature.derRepresentation.base64EncodedString(), nonce: nonce)
    }

    func verifyOffline(_ request: OfflineRequest, caller: ApplicationRecord) async throws -> Answer {
        try Self.checkData(request.data)
        guard let nonce = Data(base64Encoded: request.nonce), nonce.count == 16 else {
            throw OAuthFailure.invalidRequest("nonce must be the Base64 of 16 bytes, as the payload gave it.")
        }
        let factors = try Self.factors(request.requiredFactors, default: [.possession, .knowledge])
        let components = request.signature.split(separator: "-", omittingEmptySubsequences: false)
        guard components.count == factors.count,
            components.allSatisfy({ $0.utf8.count == 8 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } })
        else {
            throw OAuthFailure.invalidRequest(
                "signature must be \(factors.count) group(s) of 8 digits joined by -, one per factor.")
        }
        guard let activation = try await activation(request.activationId, of: caller) else {
            return Self.unknownActivation
        }
        return try await outcome(activation) {
            try await verifier.verifyOffline(
                activationId: activation.id, factors: factors, data: Data(request.data.utf8), nonce: nonce,
                signature: request.signature)
        }
    }

    // MARK: Shared

    private static let unknownActivation = Answer(
        valid: false, error: .init(code: "unknown_activation", message: "The activation is unknown."))

    /// The activation, when it belongs to an application of the caller's project.
    private func activation(_ id: String, of caller: ApplicationRecord) async throws -> PowerAuthActivationRecord? {
        guard !id.isEmpty, id.utf8.count <= 64 else { return nil }
        return try await database.read { repositories in
            guard let activation = try await repositories.powerAuthActivations.find(id: id),
                let application = try await repositories.applications.find(id: activation.applicationId),
                application.projectId == caller.projectId
            else { return nil }
            return activation
        }
    }

    /// Runs a verification and answers what it found, with the activation's state afterwards.
    private func outcome(
        _ activation: PowerAuthActivationRecord, _ verification: () async throws -> PowerAuthSignatureVerifier.Verified
    ) async throws -> Answer {
        do {
            let verified = try await verification()
            return Answer(
                valid: true, activationId: activation.id, userId: activation.userId,
                factors: verified.factors.typeName, status: PowerAuthActivationStatus.active.rawValue,
                remainingAttempts: verified.factors == .possession
                    ? max(0, verified.activation.maxFailedAttempts - verified.activation.failedAttempts)
                    : verified.activation.maxFailedAttempts)
        } catch let failure as PowerAuthFailure {
            let after = try await database.read { try await $0.powerAuthActivations.find(id: activation.id) } ?? activation
            let code =
                switch (failure.code, after.status) {
                case (_, .blocked): "activation_blocked"
                case (_, .removed): "activation_removed"
                case (_, let status) where status != .active: "activation_inactive"
                case ("ERR_INVALID_REQUEST", _): "malformed_signature"
                default: "invalid_signature"
                }
            return Answer(
                valid: false, activationId: activation.id, userId: activation.userId, status: after.status.rawValue,
                remainingAttempts: after.status == .active ? max(0, after.maxFailedAttempts - after.failedAttempts) : 0,
                error: .init(code: code, message: failure.message))
        }
    }

    private static func factors(_ text: String?, default fallback: PowerAuthSignatureFactors) throws
        -> PowerAuthSignatureFactors
    {
        guard let text else { return fallback }
        guard let factors = PowerAuthSignatureFactors(typeName: text), factors.contains(.possession) else {
            throw OAuthFailure.invalidRequest(
                "requiredFactors must be possession, possession_knowledge, possession_biometry or possession_knowledge_biometry.")
        }
        return factors
    }

    private static func checkData(_ data: String) throws {
        guard !data.isEmpty, data.utf8.count <= 2048, !data.contains("\n"), !data.contains("\r") else {
            throw OAuthFailure.invalidRequest("data must be 1 to 2048 bytes without line breaks.")
        }
    }
}
