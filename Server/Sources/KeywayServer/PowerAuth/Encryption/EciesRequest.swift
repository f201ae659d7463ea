import Crypto
import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire

/// An encrypted request checked field by field, and the context that opens it and seals the
/// answer.
struct EciesRequest: Sendable {
    /// The protocol version it was sealed in, from its request's header: 3.3, or 3.2 (the 1.7 and
    /// 1.8 mobile SDKs).
    let version: PowerAuthVersion
    /// The temporary key it was sealed to (3.3). `nil` in 3.2, which has no temporary keys and
    /// seals to the application's master key (application scope) or the activation's server key
    /// (activation scope); a `temporaryKeyId` in a 3.2 body is not read.
    let temporaryKeyId: String?
    let payload: EciesPayload

    /// The largest ciphertext read.
    static let maxEncryptedBytes = 48 * 1024
    /// How far a request's timestamp may be from the server's clock (milliseconds).
    static let timeWindow: Int64 = 5 * 60 * 1000

    init(_ body: EciesEnvelope, version: PowerAuthVersion, fallbackTemporaryKeyId: String? = nil)
        throws(PowerAuthFailure)
    {
        self.version = version
        temporaryKeyId =
            version == .v32
            ? nil
            : try PowerAuthField.identifier(body.temporaryKeyId ?? fallbackTemporaryKeyId, field: "temporaryKeyId")
        let ephemeral = try PowerAuthField.base64(
            body.ephemeralPublicKey, field: "ephemeralPublicKey", count: [33, 65], maxLength: 128)
        let encrypted = try PowerAuthField.base64(
            body.encryptedData, field: "encryptedData", maxLength: Self.maxEncryptedBytes * 4 / 3 + 4)
        guard !encrypted.isEmpty, encrypted.count % 16 == 0 else {
            throw .invalidRequest("encryptedData is not whole AES blocks.")
        }
        let mac = try PowerAuthField.base64(body.mac, field: "mac", count: [32], maxLength: 64)
        let nonce = try PowerAuthField.base64(body.nonce, field: "nonce", count: [16], maxLength: 64)
        guard let timestamp = body.timestamp, timestamp > 0 else { throw .invalidRequest("timestamp is required.") }
        payload = EciesPayload(
            encryptedData: encrypted, mac: mac, ephemeralPublicKey: ephemeral, nonce: nonce, timestamp: timestamp)
    }
}

extension EciesRequest {
    /// Refuses a request whose timestamp is more than five minutes before (stale) or after
    /// (future) the server's clock.
    func checkTimestamp(now: Date) throws(PowerAuthFailure) {
        let timestamp = Int64(clamping: payload.timestamp ?? 0)
        let now = now.epochMilliseconds
        if timestamp < now - Self.timeWindow {
            throw .encryption("The encrypted request is stale: its timestamp is more than 5 minutes before the server's clock.")
        }
        if timestamp > now + Self.timeWindow {
            throw .encryption("The encrypted request comes from the future: its timestamp is more than 5 minutes after the server's clock.")
        }
    }
}

/// One request–response cycle on the server's side.
struct EciesServerContext: Sendable {
    let context: EciesContext

    /// Agrees the cycle's key with the request's ephemeral key.
    init(
        privateKey: P256.KeyAgreement.PrivateKey, request: EciesRequest, sharedInfo1: EciesSharedInfo1,
        sharedInfo2Base: Data, applicationKey: String, activationId: String?
    ) throws(PowerAuthFailure) {
        let key: EciesEnvelopeKey
        do {
            key = try EciesEnvelopeKey.forResponse(
                privateKey: privateKey, ephemeralPublicKey: request.payload.ephemeralPublicKey ?? Data(),
                sharedInfo1: sharedInfo1.bytes, version: request.version)
        } catch {
            throw .encryption("The ephemeral public key is not a P-256 point.")
        }
        context = EciesContext(
            version: request.version, envelopeKey: key, sharedInfo2Base: sharedInfo2Base,
            associatedData: EciesContext.associatedData(
                version: request.version, applicationKey: applicationKey, activationID: activationId,
                temporaryKeyID: request.temporaryKeyId))
    }

    /// The request's plaintext; a MAC that does not match is refused.
    func open(_ request: EciesRequest) throws(PowerAuthFailure) -> Data {
        do {
            return try context.decrypt(request.payload, direction: .request)
        } catch {
            throw .encryption("The encrypted request does not open: its MAC or padding is wrong.")
        }
    }

    /// Seals an answer with a fresh nonce and the current time.
    func seal(_ plaintext: Data, now: Date) throws(PowerAuthFailure) -> EciesEnvelope {
        let nonce = Data(SecureRandom.bytes(16))
        let timestamp = UInt64(max(0, now.epochMilliseconds))
        do {
            let payload = try context.encrypt(plaintext, direction: .response, nonce: nonce, timestamp: timestamp)
            return EciesEnvelope(
                encryptedData: payload.encryptedData.base64EncodedString(), mac: payload.mac.base64EncodedString(),
                nonce: nonce.base64EncodedString(), timestamp: timestamp)
        } catch {
            throw .internalError
        }
    }
}
