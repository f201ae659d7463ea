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

    static let applicationKey = Data(repeating: 1, count: 16).base64EncodedString()
    static let signature = Data(repeating: 3, count: 32).base64EncodedString()

    @Test func authorizationHeaderWritesAndReads() throws {
        let key = Self.applicationKey, signature = Self.signature
        let header = PowerAuthAuthorizationHeader(
            activationID: "a-1", applicationKey: key, nonce: Data(0..<16), factors: [.possession, .knowledge], signature: signature)
        #expect(header.value == "PowerAuth pa_activation_id=\"a-1\", pa_application_key=\"\(key)\", pa_nonce=\"AAECAwQFBgcICQoLDA0ODw==\", "
            + "pa_signature_type=\"possession_knowledge\", pa_signature=\"\(signature)\", pa_version=\"3.3\"")
        #expect(try PowerAuthAuthorizationHeader(parsing: header.value) == header)
        // Any order, line breaks between parameters.
        let reordered = "PowerAuth pa_version=\"3.3\",\n pa_signature=\"\(signature)\" pa_signature_type=\"possession_knowledge\", "
            + "pa_nonce=\"AAECAwQFBgcICQoLDA0ODw==\", pa_application_key=\"\(key)\", pa_activation_id=\"a-1\""
        #expect(try PowerAuthAuthorizationHeader(parsing: reordered) == header)
        #expect(throws: PowerAuthError.self) { try PowerAuthAuthorizationHeader(parsing: "Bearer x") }
        #expect(throws: PowerAuthError.self) { try PowerAuthAuthorizationHeader(parsing: header.value.replacingOccurrences(of: "possession_knowledge", with: "knowledge_possession")) }
        #expect(throws: PowerAuthError.self) { try PowerAuthAuthorizationHeader(parsing: "PowerAuth pa_activation_id=\"a\", pa_activation_id=\"b\"") }

        let encryption = PowerAuthEncryptionHeader(applicationKey: key, activationID: "a-1")
        #expect(encryption.value == "PowerAuth version=\"3.3\", application_key=\"\(key)\", activation_id=\"a-1\"")
        #expect(try PowerAuthEncryptionHeader(parsing: encryption.value) == encryption)
    }

    /// The one parser every role reads the headers with: each malformed value is refused with a
    /// sentence naming what is wrong.
    @Test(arguments: [
        ("Bearer x", "The X-PowerAuth-Authorization header starts with PowerAuth."),
        ("PowerAuth pa_version=3.3", "The X-PowerAuth-Authorization header is a list of key=\"value\" parameters."),
        ("PowerAuth pa_version=\"3.3", "A value of the X-PowerAuth-Authorization header is not closed."),
        ("PowerAuth pa_version=\"3.3\", pa_version=\"3.3\"", "The X-PowerAuth-Authorization header repeats pa_version."),
        ("PowerAuth pa_version=\"4.0\"", "Protocol version 4.0 is not a PowerAuth 3 version."),
        ("PowerAuth pa_version=\"3.3\", pa_signature_type=\"possession\", pa_signature=\"c2ln\"", "pa_signature has 3 bytes, not 16."),
        ("PowerAuth " + String(repeating: "x", count: 5000), "The X-PowerAuth-Authorization header is too long."),
    ])
    func malformedAuthorizationHeadersAreRefusedWithASentence(_ text: String, _ sentence: String) {
        #expect(throws: PowerAuthError.malformedHeader(sentence)) { try PowerAuthAuthorizationHeader(parsing: text) }
    }

    @Test func eachFieldOfAnAuthorizationHeaderIsChecked() throws {
        func header(_ field: String, _ value: String) -> String {
            var fields = [
                "pa_activation_id": "a-1", "pa_application_key": Self.applicationKey, "pa_nonce": Data(0..<16).base64EncodedString(),
                "pa_signature_type": "possession_knowledge", "pa_signature": Self.signature, "pa_version": "3.3",
            ]
            fields[field] = value
            return "PowerAuth " + fields.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ", ")
        }
        #expect(throws: PowerAuthError.malformedHeader("pa_activation_id is not a valid identifier.")) {
            try PowerAuthAuthorizationHeader(parsing: header("pa_activation_id", "a b"))
        }
        #expect(throws: PowerAuthError.malformedHeader("pa_application_key has 3 bytes, not 16.")) {
            try PowerAuthAuthorizationHeader(parsing: header("pa_application_key", "c2ln"))
        }
        #expect(throws: PowerAuthError.malformedHeader("pa_nonce is not valid Base64.")) {
            try PowerAuthAuthorizationHeader(parsing: header("pa_nonce", "%%%%"))
        }
        #expect(throws: PowerAuthError.malformedHeader("pa_signature_type is not a known combination of factors.")) {
            try PowerAuthAuthorizationHeader(parsing: header("pa_signature_type", "biometry_possession"))
        }
        #expect(throws: PowerAuthError.malformedHeader("pa_signature is required.")) {
            try PowerAuthAuthorizationHeader(parsing: header("pa_signature", ""))
        }
        // 3.0 signatures are decimal digits, not Base64.
        #expect(try PowerAuthAuthorizationHeader(parsing: header("pa_version", "3.0").replacingOccurrences(of: Self.signature, with: "12345678-87654321")).version == "3.0")
    }

    @Test func tokenHeadersAreReadStrictly() throws {
        let header = try PowerAuthTokenHeader(
            tokenID: "t-1", tokenSecret: SymmetricKey(data: Data(repeating: 9, count: 16)), timestamp: 1_700_000_000_000)
        #expect(try PowerAuthTokenHeader(parsing: header.value) == header)
        #expect(throws: PowerAuthError.malformedHeader("timestamp is Unix time in milliseconds.")) {
            try PowerAuthTokenHeader(parsing: header.value.replacingOccurrences(of: "1700000000000", with: "-1"))
        }
        #expect(throws: PowerAuthError.malformedHeader("token_digest has 3 bytes, not 32.")) {
            try PowerAuthTokenHeader(parsing: header.value.replacingOccurrences(of: header.digest.base64EncodedString(), with: "c2ln"))
        }
    }
}
