import Crypto
import Foundation
import Keyway
import KeywayProtocol
import KeywayCBOR
import KeywayJOSE
import Testing

/// Why a test could not read what an authenticator wrote.
struct PasskeyReadFailure: Error, CustomStringConvertible {
    let description: String
}

/// Authenticator data read back field by field (WebAuthn Level 3 §6.1).
struct ParsedAuthenticatorData {
    let rpIdHash: [UInt8]
    let flags: UInt8
    let counter: UInt32
    let aaguid: [UInt8]?
    let credentialID: [UInt8]?
    let publicKey: CBOR?

    var userPresent: Bool { flags & 0x01 != 0 }
    var userVerified: Bool { flags & 0x04 != 0 }
    var backupEligible: Bool { flags & 0x08 != 0 }
    var backedUp: Bool { flags & 0x10 != 0 }
    var hasAttestedCredential: Bool { flags & 0x40 != 0 }

    init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 37 else { throw PasskeyReadFailure(description: "authenticator data too short") }
        rpIdHash = Array(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard flags & 0x40 != 0 else {
            guard bytes.count == 37 else { throw PasskeyReadFailure(description: "extra bytes without AT") }
            aaguid = nil
            credentialID = nil
            publicKey = nil
            return
        }
        aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        credentialID = Array(bytes[55..<55 + length])
        let (key, used) = try CBOR.decodePrefix(Data(bytes[(55 + length)...]))
        guard 55 + length + used == bytes.count else { throw PasskeyReadFailure(description: "bytes after the key") }
        publicKey = key
    }
}

/// What a test reads of a registration response.
struct ReadRegistration {
    let clientData: [String: Any]
    let clientDataJSON: [UInt8]
    let attestation: CBOR
    let authenticatorData: [UInt8]
    let parsed: ParsedAuthenticatorData

    init(_ response: PasskeyRegistrationResponse) throws {
        clientDataJSON = Array(try #require(Base64URL.decode(response.response.clientDataJSON)))
        clientData = try #require(try JSONSerialization.jsonObject(with: Data(clientDataJSON)) as? [String: Any])
        attestation = try CBOR.decode(try #require(Base64URL.decode(response.response.attestationObject)))
        authenticatorData = Array(try #require(attestation["authData"]?.bytesValue))
        parsed = try ParsedAuthenticatorData(authenticatorData)
    }
}

/// A COSE key's public key, to verify signatures with.
enum COSEPublicKey {
    case p256(P256.Signing.PublicKey)
    case ed25519(Curve25519.Signing.PublicKey)

    init(_ key: CBOR) throws {
        switch (key[1]?.intValue, key[3]?.intValue) {
        case (.some(2), .some(-7)):
            let x = try #require(key[-2]?.bytesValue)
            let y = try #require(key[-3]?.bytesValue)
            self = .p256(try P256.Signing.PublicKey(rawRepresentation: x + y))
        case (.some(1), .some(-8)):
            self = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: try #require(key[-2]?.bytesValue)))
        default:
            throw PasskeyReadFailure(description: "unknown COSE key")
        }
    }

    /// Whether `signature` (DER for ES256) is over `authenticatorData ‖ SHA-256(clientDataJSON)`.
    func verifies(_ signature: [UInt8], authenticatorData: [UInt8], clientDataJSON: [UInt8]) -> Bool {
        let signed = authenticatorData + Array(SHA256.hash(data: clientDataJSON))
        switch self {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: signed)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: signed)
        }
    }
}

/// Passkey options as a server sends them.
enum PasskeyOptions {
    static let rpId = "example.com"
    static let userHandle = Base64URL.encode(Array("user-0001-handle".utf8))

    static func creation(
        challenge: String = Base64URL.encode(Array(repeating: UInt8(7), count: 32)), algorithms: [Int] = [-7, -8, -257],
        exclude: [String] = [], userName: String = "ada@example.com", userHandle: String = userHandle
    ) -> PublicKeyCredentialCreationOptions {
        PublicKeyCredentialCreationOptions(
            rp: PublicKeyCredentialRelyingParty(id: rpId, name: "Example"),
            user: PublicKeyCredentialUser(id: userHandle, name: userName, displayName: "Ada"),
            challenge: challenge, pubKeyCredParams: algorithms.map(PublicKeyCredentialParameters.init(alg:)),
            timeout: 60000, excludeCredentials: exclude.map { PublicKeyCredentialDescriptor(id: $0) },
            authenticatorSelection: AuthenticatorSelectionCriteria(userVerification: "required"))
    }

    static func request(
        challenge: String = Base64URL.encode(Array(repeating: UInt8(9), count: 32)), allow: [String] = [],
        rpId: String = rpId
    ) -> PublicKeyCredentialRequestOptions {
        PublicKeyCredentialRequestOptions(
            challenge: challenge, timeout: 60000, rpID: rpId,
            allowCredentials: allow.map { PublicKeyCredentialDescriptor(id: $0) }, userVerification: "preferred")
    }
}
