import Crypto
import Foundation
import Keyway
import KeywayPowerAuth
import KeywayPowerAuthWire
@_exported import struct KeywayPowerAuthWire.EciesEnvelope
@_exported import struct KeywayPowerAuthWire.PowerAuthEndpoint
@_exported import struct KeywayPowerAuthWire.PowerAuthFactorRule
import KeywayProtocol

/// End-to-end encryption (PowerAuth 3.3 generic encryptor): an app seals a request body for its
/// backend with a temporary key of the Keyway server; the backend asks the server, with its
/// confidential client's credentials, for the key of that one envelope
/// (`POST /v1/powerauth/ecies/keys`), opens the body itself and seals its answer with the same
/// key. The server hands each envelope's key out once and only for a fresh envelope, so a
/// replayed or stale request cannot be opened again.
extension KeywayBackend {
    /// The most an encrypted body may weigh.
    public static let maximumEncryptedBodySize = 1024 * 1024

    /// Opens a request sealed without a signature, as its `X-PowerAuth-Encryption` header
    /// describes it (`PowerAuth version="3.3", application_key="…"[, activation_id="…"]`).
    ///
    /// - Parameters:
    ///   - body: The request body, the 3.3 JSON envelope.
    ///   - encryptionHeader: The `X-PowerAuth-Encryption` header value.
    ///   - scope: The scope the route expects; `nil` takes the header's (activation scope when
    ///     it names an activation).
    /// - Returns: The plaintext and what seals the response.
    /// - Throws: ``PowerAuthEncryptionError`` for a refused envelope, ``KeywayBackendError`` when
    ///   the server cannot answer.
    public func decryptRequest(
        body: Data, encryptionHeader: String, scope: PowerAuthEncryptionScope? = nil
    ) async throws -> PowerAuthDecryptedRequest {
        let header: PowerAuthEncryptionHeader
        do {
            header = try PowerAuthEncryptionHeader(parsing: encryptionHeader)
        } catch {
            throw PowerAuthEncryptionError(.invalidRequest, "\(error)")
        }
        guard header.version == PowerAuthVersion.v33.rawValue else {
            throw PowerAuthEncryptionError(.invalidRequest, "Only version 3.3 envelopes are accepted.")
        }
        let headerScope: PowerAuthEncryptionScope = header.activationID == nil ? .application : .activation
        if let scope, scope != headerScope {
            throw PowerAuthEncryptionError(
                .invalidRequest, "This request must be encrypted in \(scope.rawValue) scope, not \(headerScope.rawValue) scope.")
        }
        return try await decryptRequest(
            body: body, applicationKey: header.applicationKey, activationId: header.activationID)
    }

    /// Opens a request body sealed in application scope (`activationId` `nil`) or in the scope
    /// of an activation — for encrypt-then-sign, the activation of the verified signature and the
    /// application key of its `X-PowerAuth-Authorization` header.
    ///
    /// - Parameters:
    ///   - body: The request body, the 3.3 JSON envelope.
    ///   - applicationKey: The application key the app sealed with.
    ///   - activationId: The activation in activation scope.
    /// - Returns: The plaintext and what seals the response.
    /// - Throws: ``PowerAuthEncryptionError`` for a refused envelope, ``KeywayBackendError`` when
    ///   the server cannot answer.
    public func decryptRequest(body: Data, applicationKey: String, activationId: String?) async throws
        -> PowerAuthDecryptedRequest
    {
        guard body.count <= Self.maximumEncryptedBodySize else {
            throw PowerAuthEncryptionError(.invalidRequest, "An encrypted body may not exceed 1 MiB.")
        }
        guard !applicationKey.isEmpty, applicationKey.utf8.count <= 128 else {
            throw PowerAuthEncryptionError(.invalidRequest, "The application key is empty or too long.")
        }
        if let activationId {
            guard !activationId.isEmpty, activationId.utf8.count <= 64,
                activationId.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
            else { throw PowerAuthEncryptionError(.invalidRequest, "The activation ID is empty or malformed.") }
        }
        let (temporaryKeyId, envelope, payload) = try EciesEnvelope.sealedRequest(json: body)
        let scope: PowerAuthEncryptionScope = activationId == nil ? .application : .activation
        let keys = try await envelopeKeys(
            EnvelopeKeyRequest(
                applicationKey: applicationKey, activationId: activationId, scope: scope.rawValue,
                temporaryKeyId: temporaryKeyId, ephemeralPublicKey: envelope.ephemeralPublicKey ?? "",
                nonce: envelope.nonce ?? "", timestamp: payload.timestamp ?? 0))
        guard keys.version == PowerAuthVersion.v33.rawValue, let keyBytes = Data(base64Encoded: keys.envelopeKey),
            let sharedInfo2Base = Data(base64Encoded: keys.sharedInfo2Base),
            let associatedData = Data(base64Encoded: keys.associatedData),
            let envelopeKey = try? EciesEnvelopeKey(bytes: keyBytes, ephemeralPublicKey: payload.ephemeralPublicKey ?? Data())
        else { throw KeywayBackendError.serverUnavailable("The envelope key answer could not be read.") }
        let context = EciesContext(
            version: .v33, envelopeKey: envelopeKey, sharedInfo2Base: sharedInfo2Base, associatedData: associatedData)
        let plaintext: Data
        do {
            plaintext = try context.decrypt(payload, direction: .request)
        } catch {
            throw PowerAuthEncryptionError(
                .authenticationFailed, "The envelope's MAC does not match: it was not sealed for this application, or it was altered.")
        }
        return PowerAuthDecryptedRequest(
            plaintext: plaintext, scope: scope, applicationId: keys.applicationId, activationId: keys.activationId ?? activationId,
            userId: keys.userId, temporaryKeyId: temporaryKeyId, context: context, clock: clock)
    }

    private func envelopeKeys(_ request: EnvelopeKeyRequest) async throws -> EnvelopeKeyAnswer {
        let body: Data
        do {
            body = try await postJSON("/v1/powerauth/ecies/keys", request)
        } catch KeywayBackendError.oauth(let status, let error) where status == 400 {
            let message = error.errorDescription ?? "The envelope was refused."
            throw PowerAuthEncryptionError(PowerAuthEncryptionError.Code(rawValue: error.error) ?? .invalidRequest, message)
        }
        guard let answer = try? JSONDecoder().decode(EnvelopeKeyAnswer.self, from: body) else {
            throw KeywayBackendError.serverUnavailable("The envelope key answer could not be read.")
        }
        return answer
    }
}

/// A request the backend opened, and what seals its answer: the same envelope key, a fresh
/// nonce and the backend's time. Seal one response per request.
public struct PowerAuthDecryptedRequest: Sendable {
    /// The plaintext body.
    public let plaintext: Data
    /// The scope it was sealed in.
    public let scope: PowerAuthEncryptionScope
    /// The Keyway application (config ID) the application key belongs to.
    public let applicationId: String?
    /// The activation, in activation scope.
    public let activationId: String?
    /// The user of the activation, in activation scope.
    public let userId: String?
    /// The temporary key the app sealed with.
    public let temporaryKeyId: String
    private let context: EciesContext
    private let clock: any KeywayClock

    init(
        plaintext: Data, scope: PowerAuthEncryptionScope, applicationId: String?, activationId: String?, userId: String?,
        temporaryKeyId: String, context: EciesContext, clock: any KeywayClock
    ) {
        self.plaintext = plaintext
        self.scope = scope
        self.applicationId = applicationId
        self.activationId = activationId
        self.userId = userId
        self.temporaryKeyId = temporaryKeyId
        self.context = context
        self.clock = clock
    }

    /// Seals a response body for the app that sent the request.
    ///
    /// - Parameter plaintext: The response body.
    /// - Returns: The shared ``EciesEnvelope`` `{encryptedData, mac, nonce, timestamp}`; send
    ///   ``EciesEnvelope/json()`` as the response body.
    /// - Throws: `PowerAuthError` when the cipher fails.
    public func encryptResponse(_ plaintext: Data) throws -> EciesEnvelope {
        let nonce = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
        let timestamp = UInt64(max(0, clock.now().timeIntervalSince1970 * 1000))
        let payload = try context.encrypt(plaintext, direction: .response, nonce: nonce, timestamp: timestamp)
        return EciesEnvelope(
            encryptedData: payload.encryptedData.base64EncodedString(), mac: payload.mac.base64EncodedString(),
            nonce: nonce.base64EncodedString(), timestamp: timestamp)
    }
}
