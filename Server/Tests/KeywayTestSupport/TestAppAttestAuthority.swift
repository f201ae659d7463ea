import Crypto
import Foundation
import KeywayCBOR
import SwiftASN1
import X509

/// A stand-in for Apple's App Attest service in tests: its own root and intermediate CA, and
/// attestation objects and assertions laid out exactly as Apple's (CBOR, `apple-appattest`,
/// the nonce extension, WebAuthn authenticator data), each of which a test can get wrong on
/// purpose.
public struct TestAppAttestAuthority: Sendable {
    /// The root certificate, PEM: what the server is configured to trust.
    public let rootPEM: String
    private let intermediate: Certificate
    private let intermediateKey: P256.Signing.PrivateKey
    private let notValidBefore: Date
    private let notValidAfter: Date

    /// A new authority whose certificates are valid from a day before `now` for ten years.
    public init(now: Date = Date(), name: String = "Keyway Test App Attestation") throws {
        notValidBefore = now.addingTimeInterval(-86_400)
        notValidAfter = now.addingTimeInterval(10 * 365 * 86_400)
        let rootKey = P384.Signing.PrivateKey()
        let rootName = try DistinguishedName { CommonName("\(name) Root CA") }
        let root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(rootKey.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        intermediateKey = P256.Signing.PrivateKey()
        let intermediateName = try DistinguishedName { CommonName("\(name) CA 1") }
        intermediate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(intermediateKey.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: rootName, subject: intermediateName,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        rootPEM = try root.serializeAsPEM().pemString
    }

    /// A key an app instance holds: its ID (SHA-256 of the public point) and its private half.
    public struct Key: Sendable {
        public let privateKey: P256.Signing.PrivateKey
        public var id: Data { Data(SHA256.hash(data: privateKey.publicKey.x963Representation)) }
        /// The ID as DCAppAttestService gives it: standard base64.
        public var idString: String { id.base64EncodedString() }

        public init() { privateKey = P256.Signing.PrivateKey() }
    }

    /// What an attestation may get wrong, for the refusal tests.
    public struct Tampering: Sendable {
        public var nonce: Data? = nil
        public var counter: UInt32 = 0
        public var aaguid: Data? = nil
        public var credentialID: Data? = nil
        public var format = "apple-appattest"
        public init() {}
    }

    /// The attestation object of `key` for `clientDataHash` and `appID`, as `attestKey` returns it.
    public func attestation(
        of key: Key, clientDataHash: Data, appID: String, development: Bool = false, tampering: Tampering = Tampering()
    ) throws -> Data {
        let aaguid =
            tampering.aaguid ?? (development ? Data("appattestdevelop".utf8) : Data("appattest".utf8) + Data(count: 7))
        let credentialID = tampering.credentialID ?? key.id
        let point = key.privateKey.publicKey.x963Representation
        let coseKey = CBOR.map([
            (.unsigned(1), .unsigned(2)), (.unsigned(3), .int(-7)), (.int(-1), .unsigned(1)),
            (.int(-2), .bytes(point.dropFirst().prefix(32))), (.int(-3), .bytes(point.suffix(32))),
        ])
        var authData = Data(SHA256.hash(data: Data(appID.utf8)))
        authData.append(0x40)
        authData.append(contentsOf: Self.bigEndian(tampering.counter))
        authData.append(aaguid)
        authData.append(contentsOf: [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)])
        authData.append(credentialID)
        authData.append(coseKey.encoded)
        let nonce = tampering.nonce ?? Data(SHA256.hash(data: authData + clientDataHash))
        // SEQUENCE { [1] EXPLICIT OCTET STRING nonce }
        let octets = Data([0x04, UInt8(nonce.count)]) + nonce
        let tagged = Data([0xA1, UInt8(octets.count)]) + octets
        let nonceDER = Data([0x30, UInt8(tagged.count)]) + tagged
        var extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
        }
        try extensions.append(
            Certificate.Extension(oid: [1, 2, 840, 113635, 100, 8, 2], critical: false, value: ArraySlice(nonceDER)))
        let credential = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.privateKey.publicKey),
            notValidBefore: notValidBefore, notValidAfter: notValidAfter, issuer: intermediate.subject,
            subject: try DistinguishedName { CommonName(key.id.map { String(format: "%02x", $0) }.joined()) },
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions, issuerPrivateKey: .init(intermediateKey))
        let x5c = try [credential, intermediate].map { certificate -> CBOR in
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return .bytes(Data(serializer.serializedBytes))
        }
        return CBOR.map([
            (.text("fmt"), .text(tampering.format)),
            (.text("attStmt"), .map([(.text("x5c"), .array(x5c)), (.text("receipt"), .bytes(Data("receipt".utf8)))])),
            (.text("authData"), .bytes(authData)),
        ]).encoded
    }

    /// An assertion of `key` over `clientDataHash`, as `generateAssertion` returns it.
    public static func assertion(of key: Key, clientDataHash: Data, appID: String, counter: UInt32) throws -> Data {
        var authData = Data(SHA256.hash(data: Data(appID.utf8)))
        authData.append(0x40)
        authData.append(contentsOf: bigEndian(counter))
        let nonce = Data(SHA256.hash(data: authData + clientDataHash))
        let signature = try key.privateKey.signature(for: nonce)
        return CBOR.map([
            (.text("signature"), .bytes(signature.derRepresentation)), (.text("authenticatorData"), .bytes(authData)),
        ]).encoded
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
