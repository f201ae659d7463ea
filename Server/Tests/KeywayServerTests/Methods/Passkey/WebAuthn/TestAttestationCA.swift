import Crypto
import Foundation
import SwiftASN1
import X509

/// A test attestation CA: a root and an intermediate of its own, issuing attestation leaf
/// certificates that meet WebAuthn §8.2.1 unless a test asks for a flaw.
struct TestAttestationCA: Sendable {
    /// The root certificate: what a relying party is configured to trust.
    let root: Certificate
    /// The intermediate that issues the leaves.
    let intermediate: Certificate
    private let intermediateKey: P256.Signing.PrivateKey
    private let notValidBefore: Date
    private let notValidAfter: Date

    /// What a leaf may get wrong, for the refusal tests.
    struct LeafOptions: Sendable {
        /// The subject's OU; §8.2.1 wants "Authenticator Attestation", `nil` leaves it out.
        var organizationalUnit: String? = "Authenticator Attestation"
        /// The id-fido-gen-ce-aaguid extension's AAGUID; `nil` leaves the extension out.
        var aaguid: Data?
        /// Whether the leaf claims to be a CA.
        var isCertificateAuthority = false
    }

    /// An attestation leaf with its private key and the chain (leaf first) an `x5c` carries.
    struct Leaf: Sendable {
        /// The attestation key.
        let key: P256.Signing.PrivateKey
        /// The leaf certificate.
        let certificate: Certificate
        /// The DER of the leaf and the intermediate, as `x5c` holds them.
        let x5c: [Data]
    }

    /// A new CA whose certificates are valid from a day before `now` for a year.
    ///
    /// - Parameters:
    ///   - now: The time the certificates are valid around.
    ///   - name: The CA's name, in the certificates' subjects.
    init(now: Date = Date(), name: String = "Keyway Test Attestation") throws {
        notValidBefore = now.addingTimeInterval(-86_400)
        notValidAfter = now.addingTimeInterval(365 * 86_400)
        let rootKey = P256.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("\(name) Root") }
        root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(rootKey.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        intermediateKey = P256.Signing.PrivateKey()
        intermediate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: rootName,
            subject: try DistinguishedName { CommonName("\(name) CA 1") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))
    }

    /// Issues an attestation leaf.
    ///
    /// - Parameter options: What the leaf gets wrong, if anything.
    /// - Returns: The leaf, its key and its `x5c`.
    func issueLeaf(_ options: LeafOptions = LeafOptions()) throws -> Leaf {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CountryName("SE")
            OrganizationName("Keyway Test Authenticators")
            if let unit = options.organizationalUnit { OrganizationalUnitName(unit) }
            CommonName("Keyway Test Authenticator")
        }
        var extensions = try Certificate.Extensions {
            Critical(
                options.isCertificateAuthority
                    ? BasicConstraints.isCertificateAuthority(maxPathLength: nil) : BasicConstraints.notCertificateAuthority)
        }
        if let aaguid = options.aaguid {
            var serializer = DER.Serializer()
            try serializer.serialize(ASN1OctetString(contentBytes: ArraySlice(aaguid)))
            try extensions.append(
                Certificate.Extension(oid: [1, 3, 6, 1, 4, 1, 45724, 1, 1, 4], critical: false, value: serializer.serializedBytes[...]))
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: intermediate.subject, subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(intermediateKey))
        return Leaf(key: key, certificate: certificate, x5c: [try Self.der(certificate), try Self.der(intermediate)])
    }

    /// A certificate's DER.
    ///
    /// - Parameter certificate: The certificate.
    /// - Returns: Its DER encoding.
    static func der(_ certificate: Certificate) throws -> Data {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return Data(serializer.serializedBytes)
    }
}
