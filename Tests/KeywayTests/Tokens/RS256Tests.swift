import Crypto
import CryptoExtras
import Foundation
@_spi(KeywayBackend) import Keyway
import KeywayJOSE
import KeywayProtocol
import Testing

/// A clock that stays where it is put.
private struct StoppedClock: KeywayClock {
    let instant: Date
    func now() -> Date { instant }
}

@Suite("RS256: RSA JWKs, signatures and ID tokens")
struct RS256Tests {
    // RFC 7515 Appendix A.2: the RS256 example and its key (RSASSA-PKCS1-v1_5 is deterministic,
    // so signing with the private key would give the same bytes; the public half is enough here).
    static let a2Compact =
        "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw"
    static let a2Key = JSONWebKey(
        kty: "RSA",
        n: "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",
        e: "AQAB")
    /// One key for the suite: an RSA key takes a moment to generate.
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)

    @Test func verifiesRFC7515AppendixA2() throws {
        let jws = try CompactJWS(Self.a2Compact)
        #expect(jws.algorithm == "RS256")
        try jws.verifyRS256(with: try RSAJWK.publicKey(from: Self.a2Key))
        try jws.verify(with: Self.a2Key)
        // A changed payload no longer verifies.
        var parts = Self.a2Compact.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"iss":"eve"}"#.utf8))
        #expect(throws: JOSEError.invalidSignature) { try CompactJWS(parts.joined(separator: ".")).verify(with: Self.a2Key) }
    }

    @Test func thumbprintIsRFC7638Section31() {
        // RFC 7638 §3.1: the example key's thumbprint.
        let n =
            "0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"
        #expect(RSAJWK.thumbprint(n: n, e: "AQAB") == "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
    }

    @Test func signsAndVerifiesThroughTheJWK() throws {
        let jwk = try RSAJWK.publicJWK(for: Self.key.publicKey)
        #expect(jwk.kty == "RSA" && jwk.alg == "RS256" && jwk.use == "sig" && jwk.e == "AQAB")
        #expect(jwk.kid == RSAJWK.thumbprint(n: jwk.n!, e: jwk.e!))
        #expect(Base64URL.decode(jwk.n!)?.count == 256)
        let token = try JWSSigner.signRS256(payload: Data(#"{"sub":"u"}"#.utf8), header: ["typ": .string("JWT")], key: Self.key)
        let jws = try CompactJWS(token)
        #expect(jws.algorithm == "RS256" && jws.type == "JWT" && jws.signature.count == 256)
        try jws.verify(with: jwk)
        // The algorithm must fit the key: an RS256 JWS is not checked with an EC key, nor an ES256
        // one with an RSA key.
        let ec = ECJWK.publicJWK(for: P256.Signing.PrivateKey().publicKey)
        #expect(throws: JOSEError.unsupportedAlgorithm("RS256")) { try jws.verify(with: ec) }
        let es256 = try CompactJWS(
            try JWSSigner.signES256(payload: Data("{}".utf8), header: [:], key: P256.Signing.PrivateKey()))
        #expect(throws: JOSEError.unsupportedAlgorithm("ES256")) { try es256.verify(with: jwk) }
        // A short key is refused.
        var short = jwk
        short.n = Base64URL.encode(Array(repeating: UInt8(0xC1), count: 128))
        #expect(throws: JOSEError.self) { try RSAJWK.publicKey(from: short) }
    }

    @Test func theIDTokenVerifierAcceptsRS256AndES256() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let claims: [String: JSONValue] = [
            "iss": .string("https://auth.example.com"), "sub": .string("usr_1"), "aud": .string("cfg_app"),
            "exp": .number(now.timeIntervalSince1970 + 600), "iat": .number(now.timeIntervalSince1970),
        ]
        let payload = try JSONEncoder().encode(JSONValue.object(claims))
        let rsa = try RSAJWK.publicJWK(for: Self.key.publicKey)
        let ecKey = P256.Signing.PrivateKey()
        let ec = ECJWK.publicJWK(for: ecKey.publicKey)
        let keys = JSONWebKeySet(keys: [ec, rsa])
        let verifier = IDTokenVerifier(
            issuer: "https://auth.example.com", clientID: "cfg_app", clock: StoppedClock(instant: now))
        let rs256 = try JWSSigner.signRS256(payload: payload, header: ["kid": .string(rsa.kid!)], key: Self.key)
        let es256 = try JWSSigner.signES256(payload: payload, header: ["kid": .string(ec.kid!)], key: ecKey)
        #expect(try verifier.verify(rs256, keys: keys).subject == "usr_1")
        #expect(try verifier.verify(es256, keys: keys).subject == "usr_1")
        // An RS256 token naming the EC key's kid does not verify.
        let confused = try JWSSigner.signRS256(payload: payload, header: ["kid": .string(ec.kid!)], key: Self.key)
        #expect(throws: KeywayError.self) { try verifier.verify(confused, keys: keys) }
    }
}
