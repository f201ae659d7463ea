import Crypto
import Foundation
import Keyway
import KeywayJOSE
import Testing

/// A CBOR item read back by the tests' own small decoder (definite lengths only: what a WebAuthn
/// authenticator writes), map entries in their encoded order.
indirect enum DecodedCBOR: Equatable {
    case int(Int)
    case bytes([UInt8])
    case text(String)
    case array([DecodedCBOR])
    case map([(key: DecodedCBOR, value: DecodedCBOR)])
    case bool(Bool)

    static func == (lhs: DecodedCBOR, rhs: DecodedCBOR) -> Bool {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.text(let a), .text(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.map(let a), .map(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Decodes one item that takes all of `bytes`.
    static func decode(_ bytes: [UInt8]) throws -> DecodedCBOR {
        var reader = Reader(bytes: bytes)
        let item = try reader.item()
        guard reader.offset == bytes.count else { throw Failure(description: "trailing bytes") }
        return item
    }

    /// Decodes one item at the start of `bytes`; also returns how many bytes it took.
    static func decodePrefix(_ bytes: [UInt8]) throws -> (DecodedCBOR, Int) {
        var reader = Reader(bytes: bytes)
        let item = try reader.item()
        return (item, reader.offset)
    }

    /// The map's value under `key`.
    subscript(key: DecodedCBOR) -> DecodedCBOR? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The map's keys, in encoded order.
    var keys: [DecodedCBOR] {
        guard case .map(let entries) = self else { return [] }
        return entries.map(\.key)
    }

    var byteString: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw Failure(description: "truncated") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func argument(_ info: UInt8) throws -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24...27:
                var value: UInt64 = 0
                for _ in 0..<(1 << (info - 24)) { value = value << 8 | UInt64(try byte()) }
                return value
            default: throw Failure(description: "indefinite or reserved length")
            }
        }

        mutating func take(_ count: UInt64) throws -> [UInt8] {
            guard UInt64(bytes.count - offset) >= count else { throw Failure(description: "truncated") }
            defer { offset += Int(count) }
            return Array(bytes[offset..<offset + Int(count)])
        }

        mutating func item() throws -> DecodedCBOR {
            let initial = try byte()
            let major = initial >> 5
            let info = initial & 0x1F
            switch major {
            case 0: return .int(Int(try argument(info)))
            case 1: return .int(-1 - Int(try argument(info)))
            case 2: return .bytes(try take(try argument(info)))
            case 3:
                guard let text = String(bytes: try take(try argument(info)), encoding: .utf8) else {
                    throw Failure(description: "bad UTF-8")
                }
                return .text(text)
            case 4: return .array(try (0..<argument(info)).map { _ in try item() })
            case 5: return .map(try (0..<argument(info)).map { _ in (key: try item(), value: try item()) })
            case 7 where info == 20: return .bool(false)
            case 7 where info == 21: return .bool(true)
            default: throw Failure(description: "unsupported major type \(major)")
            }
        }
    }
}

/// Authenticator data read back field by field (WebAuthn Level 3 §6.1).
struct ParsedAuthenticatorData {
    let rpIdHash: [UInt8]
    let flags: UInt8
    let counter: UInt32
    let aaguid: [UInt8]?
    let credentialID: [UInt8]?
    let publicKey: DecodedCBOR?

    var userPresent: Bool { flags & 0x01 != 0 }
    var userVerified: Bool { flags & 0x04 != 0 }
    var backupEligible: Bool { flags & 0x08 != 0 }
    var backedUp: Bool { flags & 0x10 != 0 }
    var hasAttestedCredential: Bool { flags & 0x40 != 0 }

    init(_ bytes: [UInt8]) throws {
        guard bytes.count >= 37 else { throw DecodedCBOR.Failure(description: "authenticator data too short") }
        rpIdHash = Array(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard flags & 0x40 != 0 else {
            guard bytes.count == 37 else { throw DecodedCBOR.Failure(description: "extra bytes without AT") }
            aaguid = nil
            credentialID = nil
            publicKey = nil
            return
        }
        aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        credentialID = Array(bytes[55..<55 + length])
        let (key, used) = try DecodedCBOR.decodePrefix(Array(bytes[(55 + length)...]))
        guard 55 + length + used == bytes.count else { throw DecodedCBOR.Failure(description: "bytes after the key") }
        publicKey = key
    }
}

/// What a test reads of a registration response.
struct ReadRegistration {
    let clientData: [String: Any]
    let clientDataJSON: [UInt8]
    let attestation: DecodedCBOR
    let authenticatorData: [UInt8]
    let parsed: ParsedAuthenticatorData

    init(_ response: PasskeyRegistrationResponse) throws {
        clientDataJSON = Array(try #require(Base64URL.decode(response.response.clientDataJSON)))
        clientData = try #require(try JSONSerialization.jsonObject(with: Data(clientDataJSON)) as? [String: Any])
        attestation = try DecodedCBOR.decode(Array(try #require(Base64URL.decode(response.response.attestationObject))))
        authenticatorData = try #require(attestation[.text("authData")]?.byteString)
        parsed = try ParsedAuthenticatorData(authenticatorData)
    }
}

/// A COSE key's public key, to verify signatures with.
enum COSEPublicKey {
    case p256(P256.Signing.PublicKey)
    case ed25519(Curve25519.Signing.PublicKey)

    init(_ key: DecodedCBOR) throws {
        switch (key[.int(1)], key[.int(3)]) {
        case (.int(2)?, .int(-7)?):
            let x = try #require(key[.int(-2)]?.byteString)
            let y = try #require(key[.int(-3)]?.byteString)
            self = .p256(try P256.Signing.PublicKey(rawRepresentation: x + y))
        case (.int(1)?, .int(-8)?):
            self = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: try #require(key[.int(-2)]?.byteString)))
        default:
            throw DecodedCBOR.Failure(description: "unknown COSE key")
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
            challenge: challenge, timeout: 60000, rpId: rpId,
            allowCredentials: allow.map { PublicKeyCredentialDescriptor(id: $0) }, userVerification: "preferred")
    }
}
