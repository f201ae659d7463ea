import Crypto
import CryptoExtras
import Foundation
import KeywayCBOR
import SwiftASN1
@_spi(FixedExpiryValidationTime) import X509

/// The `packed` attestation statement format (WebAuthn §8.2): self attestation, signed by the
/// credential key, or an `x5c` chain whose leaf signs and meets the requirements of §8.2.1.
enum PackedAttestation {
    /// The id-fido-gen-ce-aaguid extension: the AAGUID an attestation certificate vouches for.
    static let aaguidExtension: ASN1ObjectIdentifier = [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4]

    /// The most certificates an `x5c` chain may hold.
    static let maximumChainLength = 5

    /// Verifies a packed attestation statement.
    ///
    /// - Parameters:
    ///   - statement: The `attStmt` map.
    ///   - authenticatorData: The raw authenticator data.
    ///   - clientDataHash: SHA-256 of `clientDataJSON`.
    ///   - credentialKey: The credential public key of the authenticator data.
    ///   - aaguid: The authenticator data's AAGUID.
    ///   - roots: The configured trust anchors for `x5c` chains.
    ///   - now: The time certificates must be valid at.
    /// - Returns: ``AttestationTrust/selfAttestation``, ``AttestationTrust/certified`` or ``AttestationTrust/uncertified``.
    /// - Throws: ``WebAuthnFailure/attestationInvalid(_:)`` naming what is wrong.
    static func verify(
        statement: CBOR, authenticatorData: Data, clientDataHash: Data, credentialKey: COSEPublicKey, aaguid: Data,
        roots: [Certificate], now: Date
    ) async throws(WebAuthnFailure) -> AttestationTrust {
        guard let algorithm = statement["alg"]?.intValue else { throw .attestationInvalid("the packed statement has no integer alg") }
        guard let signature = statement["sig"]?.bytesValue else { throw .attestationInvalid("the packed statement has no sig") }
        guard statement["ecdaaKeyId"] == nil else { throw .attestationInvalid("ECDAA attestation is not supported") }
        let signed = authenticatorData + clientDataHash
        guard let x5c = statement["x5c"] else {
            guard algorithm == credentialKey.algorithm.rawValue else {
                throw .attestationInvalid("the self attestation's alg \(algorithm) is not the credential key's")
            }
            guard credentialKey.isValidSignature(signature, for: signed) else {
                throw .attestationInvalid("the self attestation's signature does not verify with the credential key")
            }
            return .selfAttestation
        }
        guard let items = x5c.arrayValue, !items.isEmpty, items.count <= maximumChainLength else {
            throw .attestationInvalid("x5c is not an array of 1 to \(maximumChainLength) certificates")
        }
        var chain: [Certificate] = []
        for item in items {
            guard let der = item.bytesValue, let certificate = try? Certificate(derEncoded: [UInt8](der)) else {
                throw .attestationInvalid("a certificate of x5c does not parse")
            }
            chain.append(certificate)
        }
        let leaf = chain[0]
        guard isValidSignature(signature, for: signed, algorithm: algorithm, key: leaf.publicKey) else {
            throw .attestationInvalid("the signature does not verify with the attestation certificate's key")
        }
        try checkLeafRequirements(leaf, aaguid: aaguid)
        guard !roots.isEmpty else { return .uncertified }
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) { RFC5280Policy(fixedExpiryValidationTime: now) }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore(chain.dropFirst()))
        guard case .validCertificate = result else { return .uncertified }
        return .certified
    }

    /// Checks the attestation certificate requirements of §8.2.1: version 3; a subject with
    /// C, O, OU "Authenticator Attestation" and CN; not a CA; and, when the id-fido-gen-ce-aaguid
    /// extension is there, not critical and equal to the authenticator data's AAGUID.
    ///
    /// - Parameters:
    ///   - leaf: The attestation certificate.
    ///   - aaguid: The authenticator data's AAGUID.
    /// - Throws: ``WebAuthnFailure/attestationInvalid(_:)`` naming the requirement not met.
    static func checkLeafRequirements(_ leaf: Certificate, aaguid: Data) throws(WebAuthnFailure) {
        guard leaf.version == .v3 else { throw .attestationInvalid("the attestation certificate is not version 3") }
        func subject(_ type: ASN1ObjectIdentifier) -> String? {
            leaf.subject.lazy.flatMap { $0 }.first { $0.type == type }.flatMap { String($0.value) }
        }
        typealias Names = ASN1ObjectIdentifier.RDNAttributeType
        guard let country = subject(Names.countryName), country.count == 2 else {
            throw .attestationInvalid("the attestation certificate's subject has no two-letter C")
        }
        guard let organization = subject(Names.organizationName), !organization.isEmpty else {
            throw .attestationInvalid("the attestation certificate's subject has no O")
        }
        guard subject(Names.organizationalUnitName) == "Authenticator Attestation" else {
            throw .attestationInvalid("the attestation certificate's subject OU is not \"Authenticator Attestation\"")
        }
        guard let commonName = subject(Names.commonName), !commonName.isEmpty else {
            throw .attestationInvalid("the attestation certificate's subject has no CN")
        }
        let constraints: BasicConstraints?
        do { constraints = try leaf.extensions.basicConstraints } catch {
            throw .attestationInvalid("the attestation certificate's basic constraints do not parse")
        }
        // An absent extension means an end entity (RFC 5280 §4.2.1.9), as CA false does.
        if case .isCertificateAuthority = constraints {
            throw .attestationInvalid("the attestation certificate is a CA")
        }
        if let fidoAAGUID = leaf.extensions[oid: aaguidExtension] {
            guard !fidoAAGUID.critical else { throw .attestationInvalid("the AAGUID extension is marked critical") }
            guard let octets = try? ASN1OctetString(derEncoded: fidoAAGUID.value) else {
                throw .attestationInvalid("the AAGUID extension is not an OCTET STRING")
            }
            guard Data(octets.bytes) == aaguid else {
                throw .attestationInvalid("the attestation certificate's AAGUID is not the authenticator data's")
            }
        }
    }

    /// Whether `signature` by a certificate's `key` with the COSE `algorithm` verifies over `data`.
    ///
    /// - Parameters:
    ///   - signature: The signature (ES256 DER, RS256 PKCS#1 v1.5, EdDSA raw).
    ///   - data: The signed bytes.
    ///   - algorithm: The statement's COSE algorithm.
    ///   - key: The certificate's public key.
    /// - Returns: `true` when the algorithm fits the key and the signature verifies.
    static func isValidSignature(_ signature: Data, for data: Data, algorithm: Int, key: Certificate.PublicKey) -> Bool {
        switch COSEAlgorithm(rawValue: algorithm) {
        case .es256:
            guard let publicKey = P256.Signing.PublicKey(key),
                let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return publicKey.isValidSignature(parsed, for: data)
        case .rs256:
            guard let publicKey = _RSA.Signing.PublicKey(key) else { return false }
            return publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        case .edDSA:
            guard let publicKey = Curve25519.Signing.PublicKey(key) else { return false }
            return publicKey.isValidSignature(signature, for: data)
        case nil:
            return false
        }
    }
}
