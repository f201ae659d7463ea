import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

@Suite("JOSE")
struct JOSETests {
    // RFC 7515 Appendix A.3: the ES256 example (ECDSA signatures are randomized, so only
    // verification can be checked against the published value).
    let a3Compact =
        "eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q"
    let a3Key = JSONWebKey(
        kty: "EC", crv: "P-256", x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
        y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0")

    @Test func verifiesRFC7515AppendixA3() throws {
        let jws = try CompactJWS(a3Compact)
        #expect(jws.algorithm == "ES256")
        try jws.verifyES256(with: try ECJWK.publicKey(from: a3Key))
    }

    @Test func rejectsTamperedPayload() throws {
        var parts = a3Compact.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"iss":"eve"}"#.utf8))
        let jws = try CompactJWS(parts.joined(separator: "."))
        #expect(throws: JOSEError.invalidSignature) { try jws.verifyES256(with: try ECJWK.publicKey(from: a3Key)) }
    }

    @Test func signsAndVerifiesRoundTrip() throws {
        let key = P256.Signing.PrivateKey()
        let token = try JWSSigner.signES256(payload: Data(#"{"sub":"u"}"#.utf8), header: ["typ": .string("JWT")], key: key)
        let jws = try CompactJWS(token)
        #expect(jws.type == "JWT")
        try jws.verifyES256(with: key.publicKey)
        #expect(throws: JOSEError.invalidSignature) { try jws.verifyES256(with: P256.Signing.PrivateKey().publicKey) }
    }

    @Test func rejectsMalformedTokens() {
        for bad in ["", "a.b", "a.b.c.d", "!!.e30.AA", "e30.e30"] {
            #expect(throws: JOSEError.self) { try CompactJWS(bad) }
        }
    }

    // RFC 7638 §3.1 uses an RSA key; for EC we check the canonical form and round trip instead.
    @Test func thumbprintIsStableAndJWKRoundTrips() throws {
        let key = P256.Signing.PrivateKey().publicKey
        let jwk = ECJWK.publicJWK(for: key)
        #expect(jwk.kid == ECJWK.thumbprint(crv: "P-256", x: jwk.x!, y: jwk.y!))
        #expect(try ECJWK.publicKey(from: jwk).rawRepresentation == key.rawRepresentation)
        #expect(jwk.kid?.count == 43)
    }

    @Test func base64URL() {
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.decode("-_8") == Data([0xfb, 0xff]))
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.decode("A") == nil)
    }

    /// RFC 4648 §10 test vectors (base64url shares them for these inputs), without padding.
    @Test func base64URLRFC4648Vectors() {
        let vectors = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Data(plain.utf8))
        }
        // Padding is accepted only at the end; non-canonical trailing bits are refused.
        #expect(Base64URL.decode("Zm8=") == Data("fo".utf8))
        #expect(Base64URL.decode("Zm=8") == nil)
        #expect(Base64URL.decode("Zm9") == nil)
        #expect(Base64URL.decode("Zg\n") == nil)
    }

    @Test func base64URLMatchesFoundationOnRandomInput() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == standard)
            #expect(Base64URL.decode(standard) == Data(bytes))
        }
    }

    @Test func jsonSerializationMatchesJSONEncoder() throws {
        let value = JSONValue.object([
            "iss": .string("https://auth.example.com/tenant"), "exp": .number(1_795_000_000), "iat": .number(0),
            "neg": .number(-42), "frac": .number(0.5), "ok": .bool(true), "no": .bool(false), "none": .null,
            "amr": .array([.string("otp"), .string("hwk")]), "empty": .object([:]), "list": .array([]),
            "text": .string("quote \" backslash \\ newline \n tab \t bell \u{07} é 🙂 </script>"),
            "nested": .object(["b": .number(2), "a": .array([.null, .number(3.25)])]),
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let expected = try #require(String(data: try encoder.encode(value), encoding: .utf8))
        #expect(value.serialized() == expected)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(value.serialized().utf8)) == value)
    }

    /// RFC 9449 §7.1: the `ath` of the example access token.
    @Test func dpopAccessTokenHashRFC9449Vector() {
        #expect(
            DPoP.accessTokenHash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
                == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
    }

    @Test func dpopProofShape() throws {
        let key = P256.Signing.PrivateKey()
        let url = URL(string: "HTTPS://Server.Example.com:443/token?x=1#f")!
        let proof = try DPoP.proof(
            key: key, method: "post", url: url, issuedAt: Date(timeIntervalSince1970: 1_562_262_616), nonce: "n",
            accessToken: "at", jti: "e1j3V_bKic8-LAEB")
        let jws = try CompactJWS(proof)
        #expect(jws.type == "dpop+jwt")
        #expect(jws.algorithm == "ES256")
        try jws.verifyES256(with: key.publicKey)
        let claims = try JSONDecoder().decode(JSONValue.self, from: jws.payload)
        #expect(
            claims
                == .object([
                    "jti": .string("e1j3V_bKic8-LAEB"), "htm": .string("POST"),
                    "htu": .string("https://server.example.com/token"), "iat": .number(1_562_262_616),
                    "nonce": .string("n"), "ath": .string(DPoP.accessTokenHash("at")),
                ]))
        guard case .object(let jwk)? = jws.header["jwk"] else { Issue.record("no jwk"); return }
        #expect(jwk["d"] == nil)
        #expect(DPoP.thumbprint(of: key.publicKey) == ECJWK.publicJWK(for: key.publicKey).kid)
    }

    @Test func hex() {
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
    }

    @Test func constantTimeEquality() {
        #expect(ConstantTime.equals("abc", "abc"))
        #expect(!ConstantTime.equals("abc", "abd"))
        #expect(!ConstantTime.equals("abc", "abcd"))
        #expect(!ConstantTime.equals("", "a"))
        #expect(ConstantTime.equals("", ""))
    }
}
