import Crypto
import Foundation
import KeywayPowerAuth
import Testing

@Suite("Server-side helpers: status blob encryption, temporary key requests read and checked")
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

    @Test func theServerReadsARequestsClaimsBeforeItKnowsTheKey() throws {
        let key = try TemporaryKeyJWT.requestSigningKey(applicationSecret: "AAECAwQFBgcICQoLDA0ODw==", transportKey: nil)
        let claims = TemporaryKeyClaims(applicationKey: "YXBwa2V5", activationID: "act-1", challenge: "abc")
        let jwt = TemporaryKeyJWT.request(claims, key: key)
        #expect(try TemporaryKeyJWT.unverifiedRequestClaims(jwt) == claims)
        #expect(try TemporaryKeyJWT.verifyRequest(jwt, key: key) == claims)
        #expect(throws: PowerAuthError.authenticationFailed) {
            try TemporaryKeyJWT.verifyRequest(jwt, key: SymmetricKey(data: Data(repeating: 1, count: 16)))
        }
        // An HS256 JWT is not accepted as ES256; truncated, oversized or without claims, not at all.
        #expect(throws: PowerAuthError.self) {
            try TemporaryKeyJWT.verifyResponse(jwt, publicKey: P256.Signing.PrivateKey().publicKey)
        }
        #expect(throws: PowerAuthError.self) { try TemporaryKeyJWT.unverifiedRequestClaims(String(jwt.dropLast(60))) }
        #expect(throws: PowerAuthError.self) { try TemporaryKeyJWT.unverifiedRequestClaims("a.b") }
        #expect(throws: PowerAuthError.self) {
            try TemporaryKeyJWT.unverifiedRequestClaims(jwt + String(repeating: "A", count: TemporaryKeyJWT.maximumLength))
        }
        let header = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
        #expect(throws: PowerAuthError.self) { try TemporaryKeyJWT.unverifiedRequestClaims("\(header).e30.AAAA") }
    }

    @Test func hs256MatchesAnIndependentComputation() throws {
        // The MAC is HMAC-SHA256 over the signing input, in base64url without padding (RFC 7515).
        let key = SymmetricKey(data: Data("secret-key-123456".utf8))
        let jwt = TemporaryKeyJWT.request(TemporaryKeyClaims(applicationKey: "a", challenge: "c"), key: key)
        let parts = jwt.split(separator: ".")
        #expect(parts[0] == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9")
        #expect(parts[1] == "eyJhcHBsaWNhdGlvbktleSI6ImEiLCJjaGFsbGVuZ2UiOiJjIn0")
        let mac = HMAC<SHA256>.authenticationCode(for: Data((parts[0] + "." + parts[1]).utf8), using: key)
        let expected = Data(mac).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(String(parts[2]) == expected)
    }

    @Test func activationScopeKeyIsKDFInternalOfTheTransportKey() throws {
        let secret = Data(repeating: 9, count: 16)
        let transport = SymmetricKey(data: Data(repeating: 5, count: 16))
        let key = try TemporaryKeyJWT.requestSigningKey(applicationSecret: secret.base64EncodedString(), transportKey: transport)
        #expect(key == PowerAuthKDF.deriveInternal(key: transport, data: secret))
        #expect(key != (try TemporaryKeyJWT.requestSigningKey(applicationSecret: secret.base64EncodedString(), transportKey: nil)))
    }
}
