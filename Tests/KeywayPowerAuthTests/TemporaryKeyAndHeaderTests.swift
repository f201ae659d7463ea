import Crypto
import Foundation
import KeywayPowerAuth
import Testing

@Suite("Temporary key JWTs, the vault key, offline QR data and the headers")
struct TemporaryKeyAndHeaderTests {
    let secret = Data(1...16).base64EncodedString()

    @Test func requestJWTsAreHS256UnderTheScopesKey() throws {
        let appKey = try TemporaryKeyJWT.requestSigningKey(applicationSecret: secret, transportKey: nil)
        #expect(appKey.bytes == Data(1...16))
        let transport = SymmetricKey(data: Data(32..<48))
        let activationKey = try TemporaryKeyJWT.requestSigningKey(applicationSecret: secret, transportKey: transport)
        // KDF_INTERNAL(KEY_TRANSPORT, APP_SECRET): HMAC-SHA256 folded to 16 bytes.
        let mac = Array(HMAC<SHA256>.authenticationCode(for: Data(1...16), using: transport))
        #expect(activationKey.bytes == Data((0..<16).map { mac[$0] ^ mac[$0 + 16] }))

        let claims = TemporaryKeyClaims(applicationKey: "key", activationID: "act-1", challenge: "c1")
        let jwt = TemporaryKeyJWT.request(claims, key: activationKey)
        let header = try #require(Data(base64Encoded: String(jwt.split(separator: ".")[0]) + "="))
        #expect(String(decoding: header, as: UTF8.self) == #"{"alg":"HS256","typ":"JWT"}"#)
        #expect(try TemporaryKeyJWT.verifyRequest(jwt, key: activationKey) == claims)
        #expect(throws: PowerAuthError.authenticationFailed) { try TemporaryKeyJWT.verifyRequest(jwt, key: appKey) }
        #expect(throws: PowerAuthError.self) { try TemporaryKeyJWT.verifyRequest("a.b", key: appKey) }
        #expect(throws: PowerAuthError.invalidBase64(field: "application secret")) {
            try TemporaryKeyJWT.requestSigningKey(applicationSecret: "not base64!", transportKey: nil)
        }
    }

    @Test func responseJWTsAreES256AndCarryTheKey() throws {
        let server = P256.Signing.PrivateKey()
        let temporary = P256.KeyAgreement.PrivateKey()
        let claims = TemporaryKeyClaims(
            applicationKey: "key", challenge: "c1", keyID: "tmp-1", publicKey: temporary.publicKey.x963Representation.base64EncodedString(),
            issuedAtMilliseconds: 1_700_000_000_123, expiresAtMilliseconds: 1_700_000_300_123)
        let jwt = try TemporaryKeyJWT.response(claims, privateKey: server)
        #expect(try TemporaryKeyJWT.verifyResponse(jwt, publicKey: server.publicKey) == claims)
        #expect(throws: PowerAuthError.authenticationFailed) {
            try TemporaryKeyJWT.verifyResponse(jwt, publicKey: P256.Signing.PrivateKey().publicKey)
        }
        // A changed claim breaks the signature.
        var parts = jwt.split(separator: ".").map(String.init)
        parts[1] = parts[1].replacingOccurrences(of: "a", with: "b")
        #expect(throws: PowerAuthError.self) { try TemporaryKeyJWT.verifyResponse(parts.joined(separator: "."), publicKey: server.publicKey) }
        // An HS256 answer is not accepted where ES256 is due.
        let hs = TemporaryKeyJWT.request(claims, key: SymmetricKey(size: .bits128))
        #expect(throws: PowerAuthError.malformedSignature("the JWT is not signed with ES256")) {
            try TemporaryKeyJWT.verifyResponse(hs, publicKey: server.publicKey)
        }
    }

    @Test func vaultKeyTravelsUnderTheTransportKey() throws {
        let vault = SymmetricKey(data: Data(200..<216))
        let transport = SymmetricKey(data: Data(100..<116))
        let encrypted = try PowerAuthKeyProtection.encryptVaultKey(vault, transportKey: transport)
        #expect(encrypted.count == 32)
        #expect(try PowerAuthKeyProtection.decryptVaultKey(encrypted, transportKey: transport).bytes == vault.bytes)
        // Without padding, the one block alone.
        #expect(try PowerAuthKeyProtection.decryptVaultKey(encrypted.prefix(16), transportKey: transport).bytes == vault.bytes)
        #expect(throws: PowerAuthError.self) {
            try PowerAuthKeyProtection.decryptVaultKey(encrypted, transportKey: SymmetricKey(data: Data(0..<16)))
        }
    }

    @Test func offlineQRDataSignedAndRead() throws {
        let key = P256.Signing.PrivateKey()
        let nonce = Data(0..<16)
        let payload = try OfflineSignaturePayload(signing: "A1*A100CZK\nline two", nonce: nonce, signingKey: .master, privateKey: key)
        let read = try OfflineSignaturePayload(payload.text)
        #expect(read == payload)
        #expect(read.data == "A1*A100CZK\nline two")
        #expect(read.signingKey == .master)
        #expect(String(decoding: read.signedBytes, as: UTF8.self) == "A1*A100CZK\nline two\n\(nonce.base64EncodedString())\n0")
        #expect(read.isValid(publicKey: key.publicKey))
        #expect(!read.isValid(publicKey: P256.Signing.PrivateKey().publicKey))
        #expect(try OfflineSignaturePayload(payload.text + "\n") == payload)
        #expect(throws: PowerAuthError.malformedCode("the key flag is neither 0 nor 1")) {
            try OfflineSignaturePayload("data\n\(nonce.base64EncodedString())\n2AAAA")
        }
        #expect(throws: PowerAuthError.invalidLength(field: "offline nonce", expected: "16", actual: 3)) {
            try OfflineSignaturePayload("data\nAAAA\n0AAAA")
        }
    }

    @Test func authorizationHeaderWritesAndReads() throws {
        let header = PowerAuthAuthorizationHeader(
            activationID: "a-1", applicationKey: "k==", nonce: Data(0..<16), factors: [.possession, .knowledge], signature: "c2ln")
        #expect(header.value == "PowerAuth pa_activation_id=\"a-1\", pa_application_key=\"k==\", pa_nonce=\"AAECAwQFBgcICQoLDA0ODw==\", "
            + "pa_signature_type=\"possession_knowledge\", pa_signature=\"c2ln\", pa_version=\"3.3\"")
        #expect(try PowerAuthAuthorizationHeader(parsing: header.value) == header)
        // Any order, line breaks between parameters.
        let reordered = "PowerAuth pa_version=\"3.3\",\n pa_signature=\"c2ln\" pa_signature_type=\"possession_knowledge\", "
            + "pa_nonce=\"AAECAwQFBgcICQoLDA0ODw==\", pa_application_key=\"k==\", pa_activation_id=\"a-1\""
        #expect(try PowerAuthAuthorizationHeader(parsing: reordered) == header)
        #expect(throws: PowerAuthError.self) { try PowerAuthAuthorizationHeader(parsing: "Bearer x") }
        #expect(throws: PowerAuthError.self) { try PowerAuthAuthorizationHeader(parsing: header.value.replacingOccurrences(of: "possession_knowledge", with: "knowledge_possession")) }
        #expect(throws: PowerAuthError.self) { try PowerAuthAuthorizationHeader(parsing: "PowerAuth pa_activation_id=\"a\", pa_activation_id=\"b\"") }

        let encryption = PowerAuthEncryptionHeader(applicationKey: "k==", activationID: "a-1")
        #expect(encryption.value == "PowerAuth version=\"3.3\", application_key=\"k==\", activation_id=\"a-1\"")
        #expect(try PowerAuthEncryptionHeader(parsing: encryption.value) == encryption)
    }
}
