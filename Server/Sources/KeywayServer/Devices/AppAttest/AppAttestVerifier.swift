import Crypto
import Foundation
import KeywayCBOR
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// The App Attest environment an app's keys come from: `development` for builds signed for
/// development, `production` for TestFlight and App Store builds.
public enum AppAttestEnvironment: String, Codable, Sendable, CaseIterable {
    case production
    case development
}

/// A key an app instance attested: what later assertions are checked with.
struct AttestedKey: Sendable, Equatable {
    /// SHA-256 of the public key's uncompressed point: the key ID the device uses.
    var keyID: Data
    /// The public key (X9.63 uncompressed point).
    var publicKey: Data
    /// Apple's receipt, for fraud-metric requests to Apple.
    var receipt: Data
    var environment: AppAttestEnvironment
    /// The App ID the key was attested for.
    var appID: String
}

/// Verifies Apple App Attest attestation objects and assertions, step by step as Apple's
/// "Validating apps that connect to your server" lists them.
struct AppAttestVerifier: Sendable {
    /// The roots the credential certificates must chain to (Apple's App Attestation Root CA in
    /// production; a test root in tests).
    let roots: [Certificate]

    /// The extension of the credential certificate that carries the nonce.
    static let nonceExtension: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 8, 2]

    /// Checks an attestation object.
    ///
    /// - Parameters:
    ///   - object: The attestation object (CBOR) `attestKey(_:clientDataHash:)` returned.
    ///   - keyID: The key ID the app sends with it (SHA-256 of the public key).
    ///   - clientDataHash: The hash the app passed to `attestKey`.
    ///   - appIDs: The accepted App IDs (`TEAMID.bundle.identifier`).
    ///   - environment: The accepted environment.
    ///   - now: The time the certificates must be valid at.
    /// - Returns: The attested key, with a counter of zero.
    /// - Throws: ``AppAttestFailure`` naming the first check that failed.
    func verifyAttestation(
        _ object: Data, keyID: Data, clientDataHash: Data, appIDs: [String], environment: AppAttestEnvironment,
        now: Date
    ) async throws(AppAttestFailure) -> AttestedKey {
        let decoded: CBOR
        do { decoded = try CBOR.decode(object) } catch { throw .malformed(error.reason) }
        guard let format = decoded["fmt"]?.textValue else { throw .malformed("it has no fmt") }
        guard format == "apple-appattest" else { throw .unsupportedFormat(format) }
        guard let statement = decoded["attStmt"], let authDataBytes = decoded["authData"]?.bytesValue,
            let chain = statement["x5c"]?.arrayValue, chain.count >= 1, chain.count <= 4
        else { throw .malformed("it lacks attStmt.x5c or authData") }
        let receipt = statement["receipt"]?.bytesValue ?? Data()
        let certificates: [Certificate]
        do {
            certificates = try chain.map { item in
                guard let der = item.bytesValue else { throw AppAttestFailure.malformed("x5c holds a non-byte item") }
                return try Certificate(derEncoded: [UInt8](der))
            }
        } catch {
            throw .malformed("a certificate of x5c does not parse")
        }

        // 1. The credential certificate chains to a trusted root through the intermediates.
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) { RFC5280Policy(fixedExpiryValidationTime: now) }
        let result = await verifier.validate(leaf: certificates[0], intermediates: CertificateStore(certificates.dropFirst()))
        guard case .validCertificate = result else { throw .untrustedCertificate }

        // 2–4. The certificate's nonce is SHA256(authData ‖ clientDataHash).
        let nonce = Data(SHA256.hash(data: authDataBytes + clientDataHash))
        guard let certificateNonce = Self.nonce(in: certificates[0]), Self.equal(certificateNonce, nonce) else {
            throw .nonceMismatch
        }

        // 5. The key ID is the SHA-256 hash of the credential certificate's public key.
        guard let publicKey = P256.Signing.PublicKey(certificates[0].publicKey) else {
            throw .malformed("the credential certificate's key is not P-256")
        }
        let point = publicKey.x963Representation
        guard Self.equal(Data(SHA256.hash(data: point)), keyID) else { throw .keyIDMismatch }

        // 6. The relying-party ID hash is the hash of an accepted App ID.
        let authData = try AppAttestAuthenticatorData(authDataBytes, attested: true)
        guard let appID = appIDs.first(where: { Self.equal(Data(SHA256.hash(data: Data($0.utf8))), authData.rpIDHash) })
        else { throw .appIDMismatch }

        // 7. A new key's counter is zero.
        guard authData.counter == 0 else { throw .counterNotZero }

        // 8. The AAGUID names the accepted environment.
        guard let aaguid = authData.aaguid else { throw .malformed("the authenticator data has no attested credential") }
        guard aaguid == AppAttestAuthenticatorData.aaguid(for: environment) else { throw .wrongEnvironment }

        // 9. The credential ID is the key ID.
        guard let credentialID = authData.credentialID, Self.equal(credentialID, keyID) else { throw .keyIDMismatch }

        return AttestedKey(keyID: keyID, publicKey: point, receipt: receipt, environment: environment, appID: appID)
    }

    /// Checks an assertion made with an attested key.
    ///
    /// - Parameters:
    ///   - object: The assertion (CBOR: `signature`, `authenticatorData`) `generateAssertion` returned.
    ///   - clientDataHash: The hash the app passed to `generateAssertion`.
    ///   - key: The attested key.
    ///   - previousCounter: The last counter accepted for the key.
    /// - Returns: The assertion's counter, to keep as the new last one.
    /// - Throws: ``AppAttestFailure`` naming the first check that failed.
    func verifyAssertion(_ object: Data, clientDataHash: Data, key: AttestedKey, previousCounter: UInt32)
        throws(AppAttestFailure) -> UInt32
    {
        let decoded: CBOR
        do { decoded = try CBOR.decode(object) } catch { throw .malformed(error.reason) }
        guard let signatureBytes = decoded["signature"]?.bytesValue,
            let authDataBytes = decoded["authenticatorData"]?.bytesValue
        else { throw .malformed("it lacks signature or authenticatorData") }
        // 1–3. The signature over nonce = SHA256(authenticatorData ‖ clientDataHash) verifies.
        let nonce = Data(SHA256.hash(data: authDataBytes + clientDataHash))
        guard let publicKey = try? P256.Signing.PublicKey(x963Representation: key.publicKey),
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: nonce)
        else { throw .badSignature }
        // 4. The relying-party ID hash is the key's App ID.
        let authData = try AppAttestAuthenticatorData(authDataBytes, attested: false)
        guard Self.equal(Data(SHA256.hash(data: Data(key.appID.utf8))), authData.rpIDHash) else {
            throw .appIDMismatch
        }
        // 5. The counter increased.
        guard authData.counter > previousCounter else { throw .counterNotIncreasing }
        return authData.counter
    }

    /// The nonce of the credential certificate: `SEQUENCE { [1] EXPLICIT OCTET STRING }`.
    static func nonce(in certificate: Certificate) -> Data? {
        guard let value = certificate.extensions[oid: nonceExtension]?.value,
            let node = try? DER.parse(value),
            let octets = try? DER.sequence(node, identifier: .sequence, { nodes in
                try DER.explicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { inner in
                    try ASN1OctetString(derEncoded: inner)
                }
            })
        else { return nil }
        return Data(octets.bytes)
    }

    /// Compares two values in time independent of where they differ.
    static func equal(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
