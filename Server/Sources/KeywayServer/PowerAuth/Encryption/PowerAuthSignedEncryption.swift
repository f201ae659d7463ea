import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire

/// A signed and encrypted request, verified and opened: the signature's activation, credentials,
/// keys and factors, the envelope's plaintext, and the context that seals the answer.
struct OpenedPowerAuthRequest: Sendable {
    /// The verified signature.
    let verified: PowerAuthSignatureVerifier.Verified
    /// The request's content, its MAC checked.
    let plaintext: Data
    /// Seals the answer to the request's ephemeral key.
    let context: EciesServerContext

    /// The activation that signed.
    var activation: PowerAuthActivationRecord { verified.activation }
}

/// How every signed and encrypted `/pa/v3` request is read, in one place: the envelope read in the
/// signature's protocol version (3.2 seals to the activation's key) and its timestamp checked
/// before the signature is counted, so a malformed envelope costs no attempt; the signature
/// verified over the encrypted body with the endpoint's factors; the private key the envelope was
/// sealed to found (the activation's, or a temporary key's); the body opened in activation scope.
struct PowerAuthSignedEncryption: Sendable {
    let database: any Database
    let clock: any ServerClock
    let verifier: PowerAuthSignatureVerifier
    let keystore: PowerAuthKeystore

    /// Verifies and opens a request to `endpoint`.
    ///
    /// - Parameters:
    ///   - endpoint: What the endpoint accepts: its URI identifier, factors and `sharedInfo1`
    ///     (``PowerAuthEndpoint``, declared once for the device, the server and backends).
    ///   - authorization: The `X-PowerAuth-Authorization` header.
    ///   - body: The request's body, the ECIES envelope's JSON.
    /// - Returns: The verified signature, the plaintext and the context to seal the answer with.
    /// - Throws: ``PowerAuthFailure`` for a malformed header or envelope, a stale timestamp, a
    ///   signature refused or with other factors, or an envelope that does not open.
    func open(_ endpoint: PowerAuthEndpoint, authorization: String?, body: Data) async throws -> OpenedPowerAuthRequest {
        guard let sharedInfo1 = endpoint.sharedInfo1 else {
            preconditionFailure("\(endpoint.path) is not an encrypted endpoint.")
        }
        let version = try PowerAuthProtocol.version(PowerAuthRequestHeader.authorization(authorization).version)
        let request = try EciesRequest(PowerAuthJSON.decode(EciesEnvelope.self, from: body), version: version)
        try request.checkTimestamp(now: clock.now())
        let verified = try await verifier.verify(
            header: authorization, method: "POST", uriId: endpoint.uriId, body: body, required: endpoint.factors.accepts)
        let activation = verified.activation
        let privateKey = try await database.read { repositories in
            try await keystore.privateKey(
                for: request, applicationId: activation.applicationId, activationId: activation.id,
                sealedTo: { verified.keys.serverPrivateKey }, in: repositories)
        }
        let context = try EciesServerContext(
            privateKey: privateKey, request: request, sharedInfo1: sharedInfo1,
            sharedInfo2Base: EciesContext.activationScopeSharedInfo2Base(
                applicationSecret: verified.credentials.applicationSecret, transportKey: verified.keys.derived.transport),
            applicationKey: verified.credentials.record.applicationKey, activationId: activation.id)
        return OpenedPowerAuthRequest(verified: verified, plaintext: try context.open(request), context: context)
    }
}
