import AsyncHTTPClient
import Foundation
import KeywayPowerAuth
import KeywayProtocol
import NIOCore

/// Device signatures (PowerAuth 3.3): the backend asks the Keyway server, with its confidential
/// client's credentials, whether a request's `X-PowerAuth-Authorization` header signs exactly that
/// request with the factors the operation needs. The server keeps the counters and the fail
/// counts, so every verification goes through it.
extension KeywayBackend {
    /// The most a signed body may weigh when it is sent for verification.
    public static let maximumSignedBodySize = 1024 * 1024

    /// Verifies an online signature of one request.
    ///
    /// - Parameters:
    ///   - method: The request's HTTP method, as signed (`POST`).
    ///   - uriId: The URI identifier the device signed for this operation (for example
    ///     `/payments/pay`): agreed between the app and its backend, not the request path.
    ///   - body: The exact bytes of the request body (for a GET, the canonicalised query).
    ///   - authorization: The `X-PowerAuth-Authorization` header value.
    ///   - requiredFactors: The least the signature must prove, for example
    ///     `[.possession, .knowledge]`; a signature with fewer factors is refused without counting.
    /// - Returns: The server's verdict; a refused signature is an answer, not an error.
    /// - Throws: ``KeywayBackendError`` when the input is unusable or the server cannot answer.
    public func verifySignature(
        method: String, uriId: String, body: Data, authorization: String,
        requiredFactors: PowerAuthSignatureFactors = [.possession]
    ) async throws -> SignatureVerification {
        guard !method.isEmpty, method.utf8.count <= 16, method.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
            throw KeywayBackendError.invalidConfiguration("The method must be an upper-case HTTP method.")
        }
        guard !uriId.isEmpty, uriId.utf8.count <= 512 else {
            throw KeywayBackendError.invalidConfiguration("The URI identifier must be 1 to 512 bytes.")
        }
        guard body.count <= Self.maximumSignedBodySize else {
            throw KeywayBackendError.invalidConfiguration("The signed body is larger than 1 MiB.")
        }
        guard !authorization.isEmpty, authorization.utf8.count <= 1024 else {
            throw KeywayBackendError.invalidConfiguration("The X-PowerAuth-Authorization header is empty or too long.")
        }
        guard !requiredFactors.isEmpty else {
            throw KeywayBackendError.invalidConfiguration("At least one factor must be required.")
        }
        let request: [String: String] = [
            "method": method, "uriId": uriId, "body": body.base64EncodedString(), "authorization": authorization,
            "requiredFactors": requiredFactors.typeName,
        ]
        return try await postVerification("/v1/powerauth/signatures/verify", request)
    }

    /// Makes the QR data of an offline signature request: the device shows `data` to the user,
    /// who confirms it with their factors and types back the decimal signature.
    ///
    /// - Parameters:
    ///   - activationId: The activation that is to sign.
    ///   - data: What is signed, as text (for example an operation ID and its amount); at most
    ///     2 KiB without line breaks.
    public func makeOfflinePayload(activationId: String, data: String) async throws -> OfflineSignatureRequest {
        try Self.checkActivationId(activationId)
        guard !data.isEmpty, data.utf8.count <= 2048, !data.contains("\n") else {
            throw KeywayBackendError.invalidConfiguration("The offline data must be 1 to 2048 bytes without line breaks.")
        }
        let body = try await postJSON("/v1/powerauth/offline-payloads", ["activationId": activationId, "data": data])
        struct Answer: Decodable {
            var qrData: String
            var nonce: String
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body) else {
            throw KeywayBackendError.serverUnavailable("The offline payload answer could not be read.")
        }
        return OfflineSignatureRequest(qrData: answer.qrData, nonce: answer.nonce)
    }

    /// Verifies the decimal signature a user typed back for an offline payload.
    ///
    /// - Parameters:
    ///   - payload: What ``makeOfflinePayload(activationId:data:)`` answered.
    ///   - data: The same data.
    ///   - signature: What the user typed, for example `12345678-87654321`.
    ///   - requiredFactors: The least the signature must prove.
    public func verifyOfflineSignature(
        activationId: String, data: String, payload: OfflineSignatureRequest, signature: String,
        requiredFactors: PowerAuthSignatureFactors = [.possession, .knowledge]
    ) async throws -> SignatureVerification {
        try Self.checkActivationId(activationId)
        guard !signature.isEmpty, signature.utf8.count <= 64 else {
            throw KeywayBackendError.invalidConfiguration("The signature is empty or too long.")
        }
        return try await postVerification(
            "/v1/powerauth/offline-signatures/verify",
            [
                "activationId": activationId, "data": data, "nonce": payload.nonce, "signature": signature,
                "requiredFactors": requiredFactors.typeName,
            ])
    }

    static func checkActivationId(_ activationId: String) throws {
        guard !activationId.isEmpty, activationId.utf8.count <= 64,
            activationId.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { throw KeywayBackendError.invalidConfiguration("The activation ID is empty or malformed.") }
    }

    private func postVerification(_ path: String, _ request: [String: String]) async throws -> SignatureVerification {
        let body = try await postJSON(path, request)
        guard let answer = try? JSONDecoder().decode(SignatureVerificationResponse.self, from: body) else {
            throw KeywayBackendError.serverUnavailable("The verification answer could not be read.")
        }
        return answer.verification
    }
}
