import Crypto
import CryptoExtras
import Foundation
import KeywayCBOR
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport

@testable import KeywayServer

/// A software WebAuthn authenticator and client for tests: one credential (ES256, EdDSA or
/// RS256) that makes registration responses (attestation `none`, packed self, packed `x5c`, or
/// any other format's name with a statement) and assertion responses, with every flag, counter
/// and client-data member a test may set or get wrong.
struct SoftwareAuthenticator: Sendable {
    /// The credential's private key.
    enum PrivateKey: Sendable {
        /// A P-256 key signing ES256.
        case es256(P256.Signing.PrivateKey)
        /// An Ed25519 key signing EdDSA.
        case edDSA(Curve25519.Signing.PrivateKey)
        /// An RSA key of 2048 bits signing RS256.
        case rs256(_RSA.Signing.PrivateKey)
    }

    /// The credential's private key.
    let key: PrivateKey
    /// The credential ID.
    let credentialID: Data
    /// The AAGUID it reports.
    let aaguid: Data
    /// The user handle the credential was made for.
    let userHandle: Data
    /// The public key as a COSE_Key item.
    let coseKeyItem: CBOR

    /// A new credential.
    ///
    /// - Parameters:
    ///   - algorithm: The key's algorithm.
    ///   - credentialID: Its ID; 16 random bytes by default.
    init(_ algorithm: COSEAlgorithm, credentialID: Data = Self.random(16)) throws {
        switch algorithm {
        case .es256: key = .es256(P256.Signing.PrivateKey())
        case .edDSA: key = .edDSA(Curve25519.Signing.PrivateKey())
        case .rs256: key = .rs256(try _RSA.Signing.PrivateKey(keySize: .bits2048))
        }
        coseKeyItem = try Self.coseKeyItem(key)
        self.credentialID = credentialID
        aaguid = Self.random(16)
        userHandle = Self.random(32)
    }

    /// The key's algorithm.
    var algorithm: COSEAlgorithm {
        switch key {
        case .es256: .es256
        case .edDSA: .edDSA
        case .rs256: .rs256
        }
    }

    /// The public key of `key` as a COSE_Key item.
    ///
    /// - Parameter key: The private key.
    /// - Returns: Its public key's COSE_Key.
    static func coseKeyItem(_ key: PrivateKey) throws -> CBOR {
        switch key {
        case .es256(let key):
            let raw = key.publicKey.rawRepresentation
            return .map([
                (.unsigned(1), .unsigned(2)), (.unsigned(3), .int(-7)), (.int(-1), .unsigned(1)),
                (.int(-2), .bytes(raw.prefix(32))), (.int(-3), .bytes(raw.suffix(32))),
            ])
        case .edDSA(let key):
            return .map([
                (.unsigned(1), .unsigned(1)), (.unsigned(3), .int(-8)), (.int(-1), .unsigned(6)),
                (.int(-2), .bytes(key.publicKey.rawRepresentation)),
            ])
        case .rs256(let key):
            let primitives = try key.publicKey.getKeyPrimitives()
            return .map([
                (.unsigned(1), .unsigned(3)), (.unsigned(3), .int(-257)), (.int(-1), .bytes(primitives.modulus)),
                (.int(-2), .bytes(primitives.publicExponent)),
            ])
        }
    }

    /// The public key's COSE_Key encoding, as stored.
    var coseKey: Data { coseKeyItem.encoded }

    /// This credential as a relying party stores it.
    ///
    /// - Parameters:
    ///   - signCount: The stored counter.
    ///   - backupEligible: The stored BE flag.
    /// - Returns: The stored credential.
    func stored(signCount: UInt32 = 0, backupEligible: Bool = false) -> StoredPasskeyCredential {
        StoredPasskeyCredential(
            credentialID: credentialID, publicKey: coseKey, signCount: signCount, backupEligible: backupEligible,
            userHandle: userHandle)
    }

    /// Signs `data` with the credential key: ES256 DER, RS256 PKCS#1 v1.5, EdDSA raw.
    ///
    /// - Parameter data: The bytes to sign.
    /// - Returns: The signature.
    func sign(_ data: Data) throws -> Data {
        try Self.signer(key)(data)
    }

    /// The attestation statement a registration carries.
    enum Attestation: Sendable {
        /// `none`, with an empty statement.
        case none
        /// `packed` signed by the credential key.
        case packedSelf
        /// `packed` signed by an attestation leaf, its chain in `x5c`.
        case packedX5C(TestAttestationCA.Leaf)
        /// Any format with any statement, unverified by Keyway.
        case other(format: String, statement: CBOR)
    }

    /// What a ceremony sends and what it gets wrong.
    struct Ceremony: Sendable {
        /// The RP ID whose hash the authenticator data carries.
        var rpID = "example.com"
        /// The client data's origin.
        var origin = "https://login.example.com"
        /// The client data's type; `nil`: the ceremony's own.
        var type: String?
        /// The challenge the client data carries.
        var challenge = Data("the challenge".utf8)
        /// The client data's `crossOrigin`; `nil` leaves it out.
        var crossOrigin: Bool? = false
        /// The flags; AT is added for a registration.
        var flags: WebAuthnAuthenticatorData.Flags = [.userPresent, .userVerified]
        /// The signature counter.
        var signCount: UInt32 = 0
        /// The `id` sent; `nil`: the credential's.
        var id: Data?
        /// The user handle an assertion sends; `nil`: the credential's.
        var userHandle: Data?
        /// Another credential whose key signs instead (a signature by another key).
        var signer: PrivateKey?
        /// Flips a bit of the attestation statement's or assertion's signature.
        var corruptSignature = false
        /// The packed statement's `alg`; `nil`: the signing key's.
        var statementAlgorithm: Int?
        /// The key put in the attested credential data instead of the credential's.
        var credentialKeyItem: CBOR?
    }

    /// Builds the client data JSON of a ceremony.
    ///
    /// - Parameters:
    ///   - ceremony: What the ceremony sends.
    ///   - defaultType: The ceremony's own type.
    /// - Returns: The JSON bytes.
    static func clientDataJSON(_ ceremony: Ceremony, defaultType: String) -> Data {
        var json = #"{"type":"\#(ceremony.type ?? defaultType)","challenge":"\#(Base64URL.encode(ceremony.challenge))","origin":"\#(ceremony.origin)""#
        if let crossOrigin = ceremony.crossOrigin { json += #","crossOrigin":\#(crossOrigin)"# }
        return Data((json + "}").utf8)
    }

    /// Authenticator data for a ceremony.
    ///
    /// - Parameters:
    ///   - ceremony: Its RP ID, flags and counter.
    ///   - attested: Whether to add the attested credential data (and the AT flag).
    /// - Returns: The authenticator data's bytes.
    func authenticatorData(_ ceremony: Ceremony, attested: Bool) -> Data {
        var flags = ceremony.flags
        var data = WebAuthnRelyingParty.rpIDHash(ceremony.rpID)
        if attested { flags.insert(.attestedCredentialData) }
        data.append(flags.rawValue)
        data.append(contentsOf: withUnsafeBytes(of: ceremony.signCount.bigEndian) { Array($0) })
        if attested {
            data.append(aaguid)
            data.append(contentsOf: [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)])
            data.append(credentialID)
            data.append((ceremony.credentialKeyItem ?? coseKeyItem).encoded)
        }
        return data
    }

    /// A registration response.
    ///
    /// - Parameters:
    ///   - attestation: The attestation statement's kind.
    ///   - ceremony: What the ceremony sends and gets wrong.
    /// - Returns: The response, as a browser's `toJSON()` gives it.
    func register(_ attestation: Attestation = .none, _ ceremony: Ceremony = Ceremony()) throws -> PasskeyRegistrationResponse {
        let clientData = Self.clientDataJSON(ceremony, defaultType: "webauthn.create")
        let authData = authenticatorData(ceremony, attested: true)
        let signed = authData + Data(SHA256.hash(data: clientData))
        let format: String
        let statement: CBOR
        switch attestation {
        case .none:
            format = "none"
            statement = .map([])
        case .packedSelf:
            format = "packed"
            let signer = SoftwareAuthenticator.signer(ceremony.signer ?? key)
            statement = .map([
                (.text("alg"), .int(Int(ceremony.statementAlgorithm ?? algorithm.rawValue))),
                (.text("sig"), .bytes(Self.corrupt(try signer(signed), ceremony.corruptSignature))),
            ])
        case .packedX5C(let leaf):
            format = "packed"
            statement = .map([
                (.text("alg"), .int(Int(ceremony.statementAlgorithm ?? -7))),
                (.text("sig"), .bytes(Self.corrupt(try leaf.key.signature(for: signed).derRepresentation, ceremony.corruptSignature))),
                (.text("x5c"), .array(leaf.x5c.map { .bytes($0) })),
            ])
        case .other(let name, let other):
            format = name
            statement = other
        }
        let object = CBOR.map([(.text("fmt"), .text(format)), (.text("attStmt"), statement), (.text("authData"), .bytes(authData))])
        return PasskeyRegistrationResponse(
            id: Base64URL.encode(ceremony.id ?? credentialID),
            response: .init(
                clientDataJSON: Base64URL.encode(clientData), attestationObject: Base64URL.encode(object.encoded),
                transports: ["internal", "hybrid"]))
    }

    /// An assertion response.
    ///
    /// - Parameter ceremony: What the ceremony sends and gets wrong.
    /// - Returns: The response, as a browser's `toJSON()` gives it.
    func assert(_ ceremony: Ceremony = Ceremony()) throws -> PasskeyAssertionResponse {
        let clientData = Self.clientDataJSON(ceremony, defaultType: "webauthn.get")
        let authData = authenticatorData(ceremony, attested: false)
        let signer = SoftwareAuthenticator.signer(ceremony.signer ?? key)
        let signature = Self.corrupt(try signer(authData + Data(SHA256.hash(data: clientData))), ceremony.corruptSignature)
        return PasskeyAssertionResponse(
            id: Base64URL.encode(ceremony.id ?? credentialID),
            response: .init(
                clientDataJSON: Base64URL.encode(clientData), authenticatorData: Base64URL.encode(authData),
                signature: Base64URL.encode(signature), userHandle: Base64URL.encode(ceremony.userHandle ?? userHandle)))
    }

    /// A signing function for a private key.
    ///
    /// - Parameter key: The key.
    /// - Returns: What signs with it.
    static func signer(_ key: PrivateKey) -> @Sendable (Data) throws -> Data {
        { data in
            switch key {
            case .es256(let key): try key.signature(for: data).derRepresentation
            case .edDSA(let key): try key.signature(for: data)
            case .rs256(let key): try key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation
            }
        }
    }

    /// `signature` with its last bit flipped when `corrupt`.
    ///
    /// - Parameters:
    ///   - signature: The signature.
    ///   - corrupt: Whether to flip the bit.
    /// - Returns: The signature, perhaps corrupted.
    static func corrupt(_ signature: Data, _ corrupt: Bool) -> Data {
        guard corrupt, !signature.isEmpty else { return signature }
        var bytes = signature
        bytes[bytes.index(before: bytes.endIndex)] ^= 0x01
        return bytes
    }

    /// `count` random bytes.
    ///
    /// - Parameter count: How many.
    /// - Returns: The bytes.
    static func random(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) })
    }
}
