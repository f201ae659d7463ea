import Crypto
import CryptoExtras
import Foundation
@testable import Keyway
import KeywayProtocol
import Testing

@Suite("Server trust policy")
struct ServerTrustPolicyTests {
    @Test func pinsMustBeSHA256Digests() throws {
        #expect(throws: KeywayError.self) { try ServerTrustPolicy.publicKeyPinning(sha256: []) }
        #expect(throws: KeywayError.self) { try ServerTrustPolicy.publicKeyPinning(sha256: ["not base64"]) }
        #expect(throws: KeywayError.self) { try ServerTrustPolicy.publicKeyPinning(sha256: [Data(count: 20).base64EncodedString()]) }
        let pin = ServerTrustPolicy.pin(subjectPublicKeyInfo: Data("spki".utf8))
        let policy = try ServerTrustPolicy.publicKeyPinning(sha256: [pin])
        #expect(policy != .system)
        #expect(ServerTrustPolicy.system.isEnforceable)
    }

    @Test func theSPKIPrefixesRebuildTheDEROfEachKeyType() throws {
        let p256 = P256.Signing.PrivateKey().publicKey
        #expect(SubjectPublicKeyInfo.der(type: .ec, bits: 256, raw: p256.x963Representation) == p256.derRepresentation)
        let p384 = P384.Signing.PrivateKey().publicKey
        #expect(SubjectPublicKeyInfo.der(type: .ec, bits: 384, raw: p384.x963Representation) == p384.derRepresentation)
        for bits in [2048, 3072, 4096] {
            let rsa = try _RSA.Signing.PrivateKey(keySize: .init(bitCount: bits)).publicKey
            #expect(SubjectPublicKeyInfo.der(type: .rsa, bits: bits, raw: rsa.pkcs1DERRepresentation) == rsa.derRepresentation, "\(bits)")
        }
        #expect(SubjectPublicKeyInfo.der(type: .ec, bits: 521, raw: Data()) == nil)
    }

    #if canImport(FoundationNetworking)
        @Test func linuxRefusesPinsInsteadOfIgnoringThem() async throws {
            let policy = try ServerTrustPolicy.publicKeyPinning(sha256: [ServerTrustPolicy.pin(subjectPublicKeyInfo: Data("k".utf8))])
            #expect(!policy.isEnforceable)
            let transport = URLSessionTransport(timeout: 5, serverTrust: policy)
            let error = await #expect(throws: KeywayError.self) {
                try await transport.send(TransportRequest(method: "GET", url: URL(string: "https://127.0.0.1:9/")!, headers: [:], body: nil))
            }
            if case .invalidConfiguration = error {} else { Issue.record("expected invalidConfiguration, got \(String(describing: error))") }
        }
    #endif
}
