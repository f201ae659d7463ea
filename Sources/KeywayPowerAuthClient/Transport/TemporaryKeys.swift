import Crypto
import Foundation
import KeywayPowerAuthWire

/// A temporary encryption key the server made for one scope (protocol 3.3).
struct TemporaryKey: Sendable {
    /// Its ID (`sub`), which enters the associated data and travels as `temporaryKeyId`.
    let id: String
    /// Its public key.
    let publicKey: P256.KeyAgreement.PublicKey
    /// When the server stops accepting it, when the answer said.
    var expiresAt: Date? = nil
}

/// `POST /pa/v3/keystore/create`: a request JWT signed with HS256, an answer JWT signed with
/// ES256 by the master server key (application scope) or the activation's server key
/// (activation scope), whose echoed claims must be the request's.
struct TemporaryKeys: Sendable {
    let http: PowerAuthHTTP
    let clock: any KeywayClock

    /// Asks for a key of `scope`.
    ///
    /// - Parameters:
    ///   - scope: Application, or an activation with its transport key.
    ///   - serverPublicKey: The key that must sign the answer: the master server key or the
    ///     activation's server key.
    /// - Returns: The key.
    /// - Throws: ``ActivationError/invalidResponse(_:)`` when the answer's signature, echoed
    ///   claims or expiry are wrong, and the transport's errors.
    func create(scope: EciesScope, serverPublicKey: P256.Signing.PublicKey) async throws(ActivationError) -> TemporaryKey {
        let configuration = http.configuration
        let challenge = Randomness.bytes(18).base64EncodedString()
        let activationID: String?
        let transportKey: SymmetricKey?
        switch scope {
        case .application:
            activationID = nil
            transportKey = nil
        case let .activation(id, key):
            activationID = id
            transportKey = key
        }
        let signingKey: SymmetricKey
        do {
            signingKey = try TemporaryKeyJWT.requestSigningKey(applicationSecret: configuration.applicationSecret, transportKey: transportKey)
        } catch {
            throw .invalidConfiguration("applicationSecret is not Base64.")
        }
        let request = TemporaryKeyJWT.request(
            TemporaryKeyClaims(applicationKey: configuration.applicationKey, activationID: activationID, challenge: challenge),
            key: signingKey)
        let body = try await http.post("/pa/v3/keystore/create", json: PowerAuthRequestEnvelope(requestObject: KeystoreCreateRequest(jwt: request)))
        let jwt = try Self.answerJWT(body)
        let claims: TemporaryKeyClaims
        do {
            claims = try TemporaryKeyJWT.verifyResponse(jwt, publicKey: serverPublicKey)
        } catch {
            throw .invalidResponse("The temporary key is not signed by the server's key.")
        }
        return try Self.check(
            claims, applicationKey: configuration.applicationKey, activationID: activationID, challenge: challenge,
            now: clock.now())
    }

    /// The JWT of the answer, in `responseObject` (or `requestObject`, as the published example
    /// writes it).
    static func answerJWT(_ body: Data) throws(ActivationError) -> String {
        let answer = try PowerAuthHTTP.decode(KeystoreCreateResponse.self, from: body, what: "temporary key answer")
        guard let jwt = answer.jwt else {
            throw .invalidResponse("The temporary key answer carries no JWT.")
        }
        return jwt
    }

    /// Checks the echoed claims, the expiry and the key.
    static func check(
        _ claims: TemporaryKeyClaims, applicationKey: String, activationID: String?, challenge: String, now: Date
    ) throws(ActivationError) -> TemporaryKey {
        guard claims.applicationKey == applicationKey, claims.challenge == challenge, claims.activationID == activationID else {
            throw .invalidResponse("The temporary key answers another request.")
        }
        if let expires = claims.expiresAtMilliseconds, Double(expires) / 1000 <= now.timeIntervalSince1970 {
            throw .invalidResponse("The temporary key has already expired; check the device's clock.")
        }
        guard let id = claims.keyID, !id.isEmpty, let text = claims.publicKey, let bytes = Data(base64Encoded: text),
              let publicKey = try? PowerAuthKeys.publicKey(bytes)
        else { throw .invalidResponse("The temporary key answer has no key ID or no P-256 public key.") }
        return TemporaryKey(
            id: id, publicKey: publicKey, expiresAt: claims.expiresAtMilliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) })
    }
}
