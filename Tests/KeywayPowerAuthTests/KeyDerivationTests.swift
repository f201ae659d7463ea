import Crypto
import Foundation
import KeywayPowerAuth
import Testing

@Suite("Master secret and derived keys")
struct KeyDerivationTests {
    static let masterSecretCases = Vectors.load("compute-master-secret-key")
    static let derivedKeyCases = Vectors.load("compute-derived-keys")

    @Test func vectorFilesAreComplete() {
        #expect(Self.masterSecretCases.count == 20)
        #expect(Self.derivedKeyCases.count == 20)
    }

    @Test(arguments: masterSecretCases)
    func masterSecret(_ vector: VectorCase) throws {
        let expected = try vector.bytes("masterSecretKey")
        let device = try PowerAuthKeys.privateKey(vector.bytes("devicePrivateKey"))
        let server = try PowerAuthKeys.privateKey(vector.bytes("serverPrivateKey"))
        let devicePublic = try PowerAuthKeys.publicKey(vector.bytes("devicePublicKey"))
        let serverPublic = try PowerAuthKeys.publicKey(vector.bytes("serverPublicKey"))
        #expect(device.publicKey.x963Representation == devicePublic.x963Representation)
        #expect(server.publicKey.x963Representation == serverPublic.x963Representation)
        #expect(try PowerAuthKeys.masterSecret(privateKey: device, publicKey: serverPublic).bytes == expected)
        #expect(try PowerAuthKeys.masterSecret(privateKey: server, publicKey: devicePublic).bytes == expected)
        // A compressed public key gives the same secret.
        let compressed = try PowerAuthKeys.publicKey(serverPublic.compressedRepresentation)
        #expect(try PowerAuthKeys.masterSecret(privateKey: device, publicKey: compressed).bytes == expected)
    }

    @Test(arguments: derivedKeyCases)
    func derivedKeys(_ vector: VectorCase) throws {
        let keys = try PowerAuthDerivedKeys(masterSecret: vector.key("masterSecretKey"))
        #expect(keys.signaturePossession.bytes == (try vector.bytes("signaturePossessionKey")))
        #expect(keys.signatureKnowledge.bytes == (try vector.bytes("signatureKnowledgeKey")))
        #expect(keys.signatureBiometry.bytes == (try vector.bytes("signatureBiometryKey")))
        #expect(keys.transport.bytes == (try vector.bytes("transportKey")))
        #expect(keys.vaultEncryption.bytes == (try vector.bytes("vaultEncryptionKey")))
        #expect(keys.signatureKeys(for: [.possession, .biometry]).map(\.bytes) == [keys.signaturePossession.bytes, keys.signatureBiometry.bytes])
    }

    @Test func kdfPutsTheIndexInTheLastBytes() throws {
        // AES-128 of the block 00…00 01 under the zero key, computed independently.
        let key = SymmetricKey(data: [UInt8](repeating: 0, count: 16))
        let derived = try PowerAuthKDF.derive(key: key, index: 1)
        #expect(derived.bytes.count == 16)
        #expect(try PowerAuthKDF.derive(key: key, index: 1).bytes == derived.bytes)
        #expect(try PowerAuthKDF.derive(key: key, index: 2).bytes != derived.bytes)
    }

    @Test func kdfInternalUsesTheKeyAsHMACKey() {
        let key = SymmetricKey(data: Data(repeating: 7, count: 16))
        let data = Data("data".utf8)
        let mac = Array(HMAC<SHA256>.authenticationCode(for: data, using: key))
        let expected = Data((0..<16).map { mac[$0] ^ mac[$0 + 16] })
        #expect(PowerAuthKDF.deriveInternal(key: key, data: data).bytes == expected)
    }

    @Test func malformedKeysThrow() {
        #expect(throws: PowerAuthError.invalidLength(field: "KDF key", expected: "16", actual: 32)) {
            try PowerAuthKDF.derive(key: SymmetricKey(size: .bits256), index: 1)
        }
        #expect(throws: PowerAuthError.invalidKey(field: "public key")) { try PowerAuthKeys.publicKey(Data([4, 1, 2])) }
        #expect(throws: PowerAuthError.invalidKey(field: "public key")) { try PowerAuthKeys.publicKey(Data(repeating: 4, count: 65)) }
        #expect(throws: PowerAuthError.invalidKey(field: "private key")) { try PowerAuthKeys.privateKey(Data()) }
        #expect(throws: PowerAuthError.invalidKey(field: "private key")) { try PowerAuthKeys.privateKey(Data(repeating: 0xFF, count: 32)) }
        #expect(throws: PowerAuthError.invalidKey(field: "private key")) { try PowerAuthKeys.privateKey(Data(repeating: 1, count: 34)) }
    }

    @Test func pukDerivationFollowsThePostcardScheme() throws {
        let base = SymmetricKey(data: Data(0..<16))
        let key = try PowerAuthKDF.derive(key: base, index: 42).bytes
        let value = key.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0xFF_FFFF_FFFF
        let puk = try RecoveryPUK.derive(baseKey: base, index: 42)
        #expect(puk.value.count == 10)
        #expect(UInt64(puk.value) == value % 10_000_000_000)
    }
}

@Suite("Public key fingerprint v3")
struct FingerprintTests {
    static let cases = Vectors.load("public-key-fingerprint-v3")

    @Test func vectorFileIsComplete() {
        #expect(Self.cases.count == 100)
    }

    @Test(arguments: cases)
    func fingerprint(_ vector: VectorCase) throws {
        let device = try PowerAuthKeys.publicKey(vector.bytes("devicePublicKey"))
        let server = try PowerAuthKeys.publicKey(vector.bytes("serverPublicKey"))
        #expect(PowerAuthKeys.minimalX(of: device) == (try vector.bytes("devicePublicKeyCoordX")))
        #expect(PowerAuthKeys.minimalX(of: server) == (try vector.bytes("serverPublicKeyCoordX")))
        let fingerprint = PublicKeyFingerprint.v3(devicePublicKey: device, activationID: try vector.value("activationId"), serverPublicKey: server)
        #expect(fingerprint == (try vector.value("fingerprint")))
    }
}

@Suite("Activation data signature v3")
struct ActivationSignatureTests {
    static let cases = Vectors.load("verify-activation-data-signature-v3")

    @Test func vectorFileIsComplete() {
        #expect(Self.cases.count == 20)
    }

    @Test(arguments: cases)
    func verifies(_ vector: VectorCase) throws {
        let code = try ActivationCode(vector.value("activationCode"))
        let publicKey = try ActivationSignature.publicKey(vector.bytes("masterPublicKey"))
        let signature = try vector.bytes("activationSignature")
        #expect(ActivationSignature.isValid(signature: signature, code: code, masterPublicKey: publicKey))
        // The QR form carries the same signature.
        let qr = try ActivationQRCode(code.value + "#" + vector.value("activationSignature"))
        #expect(qr.signature == signature)
        // Another code, a damaged signature and another key are refused.
        let other = ActivationCode.random()
        #expect(!ActivationSignature.isValid(signature: signature, code: other, masterPublicKey: publicKey))
        var damaged = signature
        damaged[damaged.count - 1] ^= 1
        #expect(!ActivationSignature.isValid(signature: damaged, code: code, masterPublicKey: publicKey))
        #expect(!ActivationSignature.isValid(signature: Data([1, 2, 3]), code: code, masterPublicKey: publicKey))
        // Signing with the master private key verifies.
        let privateScalar = try PowerAuthKeys.privateKey(vector.bytes("masterPrivateKey"))
        let signing = try P256.Signing.PrivateKey(rawRepresentation: privateScalar.rawRepresentation)
        #expect(signing.publicKey.x963Representation == publicKey.x963Representation)
        let fresh = try ActivationSignature.sign(code: code, masterPrivateKey: signing)
        #expect(ActivationSignature.isValid(signature: fresh, code: code, masterPublicKey: publicKey))
    }
}
