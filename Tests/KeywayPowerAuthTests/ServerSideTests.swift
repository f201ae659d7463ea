import Crypto
import Foundation
import KeywayPowerAuth
import Testing

@Suite("Server-side helpers: status blob encryption, vault key, temporary key JWTs")
struct ServerSideTests {
    @Test(arguments: ActivationStatusTests.dataCases)
    func encryptingADecryptedBlobGivesTheVectorBack(_ vector: VectorCase) throws {
        let transportKey = try vector.key("transportKey")
        let challenge = try vector.bytes("challenge")
        let nonce = try vector.bytes("nonce")
        let blob = try ActivationStatusBlob(
            decrypting: vector.bytes("encryptedStatusBlob"), transportKey: transportKey, challenge: challenge, nonce: nonce)
        let rebuilt = try ActivationStatusBlob(
            state: blob.state, currentVersion: blob.currentVersion, upgradeVersion: blob.upgradeVersion,
            counterByte: blob.counterByte, failedAttempts: blob.failedAttempts, maxFailedAttempts: blob.maxFailedAttempts,
            counterLookAhead: blob.counterLookAhead, counterDataHash: blob.counterDataHash)
        #expect(rebuilt == blob)
        let encrypted = try rebuilt.encrypted(transportKey: transportKey, challenge: challenge, nonce: nonce)
        let again = try ActivationStatusBlob(decrypting: encrypted, transportKey: transportKey, challenge: challenge, nonce: nonce)
        #expect(again == blob)
        #expect(encrypted.count == 32)
    }

    @Test func encodedBlobLayout() throws {
        let hash = Data((0..<16).map { UInt8($0) })
        let blob = try ActivationStatusBlob(
            state: .blocked, counterByte: 7, failedAttempts: 2, maxFailedAttempts: 5, counterLookAhead: 20, counterDataHash: hash)
        let bytes = Array(blob.encoded)
        #expect(bytes.count == 32)
        #expect(Array(bytes[0..<8]) == [0xDE, 0xC0, 0xDE, 0xD1, 4, 3, 3, 0])
        #expect(Array(bytes[12..<16]) == [7, 2, 5, 20])
        #expect(Data(bytes[16...]) == hash)
        #expect(throws: PowerAuthError.self) {
            try ActivationStatusBlob(state: .active, counterByte: 0, failedAttempts: 0, maxFailedAttempts: 5,
                                     counterLookAhead: 20, counterDataHash: Data(count: 15))
        }
    }

    @Test func vaultKeyRoundTripsAndAWrongTransportKeyFails() throws {
        let vault = SymmetricKey(size: .bits128)
        let transport = SymmetricKey(size: .bits128)
        let encrypted = try PowerAuthVaultKey.encrypt(vault, transportKey: transport)
        #expect(encrypted.count == 32)
        let opened = try PowerAuthVaultKey.decrypt(encrypted, transportKey: transport)
        #expect(opened == vault)
        let wrong = try? PowerAuthVaultKey.decrypt(encrypted, transportKey: SymmetricKey(size: .bits128))
        #expect(wrong != vault)
    }

    @Test func hs256SignsAndVerifies() throws {
        let secret = Data((0..<16).map { UInt8($0 * 3) })
        let key = TemporaryKeyScope.requestSigningKey(applicationSecret: secret, transportKey: nil)
        let claims = TemporaryKeyRequestClaims(applicationKey: "YXBwa2V5", challenge: "abc")
        let jwt = PowerAuthJWT.signHS256(payload: try JSONEncoder().encode(claims), key: key)
        let payload = try PowerAuthJWT.verifyHS256(jwt, key: key)
        #expect(try JSONDecoder().decode(TemporaryKeyRequestClaims.self, from: payload) == claims)
        #expect(try PowerAuthJWT.unverifiedPayload(jwt) == payload)
        #expect(throws: PowerAuthError.authenticationFailed) {
            try PowerAuthJWT.verifyHS256(jwt, key: SymmetricKey(data: Data(repeating: 1, count: 16)))
        }
        // An HS256 JWT is not accepted as ES256, nor a truncated one at all.
        #expect(throws: PowerAuthError.self) {
            try PowerAuthJWT.verifyES256(jwt, publicKey: P256.Signing.PrivateKey().publicKey)
        }
        #expect(throws: PowerAuthError.self) { try PowerAuthJWT.verifyHS256(String(jwt.dropLast(60)), key: key) }
        #expect(throws: PowerAuthError.self) { try PowerAuthJWT.verifyHS256("a.b", key: key) }
    }

    @Test func hs256MatchesAnIndependentComputation() throws {
        // RFC 7515 A.1's key and payload, with this module's header: the MAC is HMAC-SHA256 over
        // the signing input, base64url without padding.
        let key = SymmetricKey(data: Data("secret-key-123456".utf8))
        let jwt = PowerAuthJWT.signHS256(payload: Data("{\"a\":1}".utf8), key: key)
        let parts = jwt.split(separator: ".")
        #expect(parts[0] == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9")
        #expect(parts[1] == "eyJhIjoxfQ")
        let mac = HMAC<SHA256>.authenticationCode(for: Data((parts[0] + "." + parts[1]).utf8), using: key)
        let expected = Data(mac).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(String(parts[2]) == expected)
    }

    @Test func activationScopeKeyIsKDFInternalOfTheTransportKey() {
        let secret = Data(repeating: 9, count: 16)
        let transport = SymmetricKey(data: Data(repeating: 5, count: 16))
        let key = TemporaryKeyScope.requestSigningKey(applicationSecret: secret, transportKey: transport)
        #expect(key == PowerAuthKDF.deriveInternal(key: transport, data: secret))
        #expect(key != TemporaryKeyScope.requestSigningKey(applicationSecret: secret, transportKey: nil))
    }

    @Test func es256SignsAndVerifies() throws {
        let master = P256.Signing.PrivateKey()
        let claims = TemporaryKeyResponseClaims(
            sub: "k1", applicationKey: "YXBw", activationId: nil, challenge: "c", publicKey: "cGs=",
            iatMs: 1_700_000_000_123, expMs: 1_700_000_300_123)
        #expect(claims.iat == 1_700_000_000 && claims.exp == 1_700_000_300)
        let jwt = try PowerAuthJWT.signES256(payload: try JSONEncoder().encode(claims), privateKey: master)
        let payload = try PowerAuthJWT.verifyES256(jwt, publicKey: master.publicKey)
        let decoded = try JSONDecoder().decode(TemporaryKeyResponseClaims.self, from: payload)
        #expect(decoded == claims)
        let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any]
        #expect(object?["iat_ms"] as? Int == 1_700_000_000_123)
        #expect(throws: PowerAuthError.authenticationFailed) {
            try PowerAuthJWT.verifyES256(jwt, publicKey: P256.Signing.PrivateKey().publicKey)
        }
    }
}
