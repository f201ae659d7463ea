import Crypto
import Foundation
import KeywayPowerAuth
import Testing

@Suite("Recovery postcard derivation")
struct RecoveryPostcardTests {
    /// The X9.63 KDF agrees with swift-crypto's own (over an ECDH shared secret's bytes).
    @Test(arguments: [0, 16, 32, 33])
    func x963KDFMatchesSwiftCrypto(sharedInfoLength: Int) throws {
        let alice = P256.KeyAgreement.PrivateKey()
        let bob = P256.KeyAgreement.PrivateKey()
        let shared = try alice.sharedSecretFromKeyAgreement(with: bob.publicKey)
        let z = shared.withUnsafeBytes { Data($0) }
        let info = Data((0..<sharedInfoLength).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for length in [16, 32, 48, 80] {
            let expected = shared.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: info, outputByteCount: length)
                .withUnsafeBytes { Data($0) }
            #expect(RecoveryPostcard.x963KDF(secret: z, sharedInfo: info, outputByteCount: length) == expected)
        }
    }

    /// A known answer: SHA-256(Z ‖ 00000001 ‖ info) for one block.
    @Test func x963KDFKnownAnswer() {
        let z = Data(repeating: 0x0B, count: 32)
        let info = Data(repeating: 0x0C, count: 32)
        let expected = Data(SHA256.hash(data: z + Data([0, 0, 0, 1]) + info))
        #expect(RecoveryPostcard.x963KDF(secret: z, sharedInfo: info, outputByteCount: 32) == expected)
    }

    @Test func derivesTheCodeAndPUKsAsPublished() throws {
        let secret = Data((0..<32).map { UInt8($0) })
        let nonce = Data((0..<32).map { UInt8(255 - $0) })
        let derived = try RecoveryPostcard.derive(sharedSecret: secret, nonce: nonce)
        let shared = RecoveryPostcard.x963KDF(secret: secret, sharedInfo: nonce, outputByteCount: 32)
        #expect(derived.recoveryCode.code == (try ActivationCode(randomBytes: shared.prefix(10))))
        #expect(derived.pukBaseKey.withUnsafeBytes { Data($0) } == shared.subdata(in: 10..<26))
        let puk = try RecoveryPUK.derive(baseKey: derived.pukBaseKey, index: 123_456)
        #expect(puk.value.count == 10)
        #expect(try RecoveryPostcard.derive(sharedSecret: secret, nonce: nonce).recoveryCode == derived.recoveryCode)
        #expect(throws: PowerAuthError.self) { try RecoveryPostcard.derive(sharedSecret: Data(count: 16), nonce: nonce) }
    }
}
