import Crypto
import Foundation
@_spi(KeywayBackend) import Keyway
import KeywayJOSE
import KeywayProtocol
import Testing

/// A clock that stays where it is put.
private struct FixedClock: KeywayClock {
    let instant: Date
    func now() -> Date { instant }
}

@Suite("ID token verification")
struct IDTokenVerifierTests {
    let key = P256.Signing.PrivateKey()
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let issuer = "https://auth.example.com"
    let accessToken = "eyJ.access.token"

    var keys: JSONWebKeySet { JSONWebKeySet(keys: [ECJWK.publicJWK(for: key.publicKey)]) }
    var verifier: IDTokenVerifier { IDTokenVerifier(issuer: issuer, clientID: "cfg_app", clock: FixedClock(instant: now)) }

    func claims(_ changes: [String: JSONValue?] = [:]) -> [String: JSONValue] {
        let atHash = Base64URL.encode(Array(SHA256.hash(data: Data(accessToken.utf8))).prefix(16))
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string("usr_1"), "aud": .string("cfg_app"), "azp": .string("cfg_app"),
            "exp": .number(now.timeIntervalSince1970 + 3600), "iat": .number(now.timeIntervalSince1970),
            "email": .string("ada@example.com"), "email_verified": .bool(true), "amr": .array([.string("otp")]),
            "at_hash": .string(atHash), "sid": .string("ses_1"),
        ]
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    func token(_ claims: [String: JSONValue], signer: P256.Signing.PrivateKey? = nil, kid: String? = nil) throws -> String {
        let payload = try JSONEncoder().encode(JSONValue.object(claims))
        let header: [String: JSONValue] = ["typ": .string("JWT"), "kid": .string(kid ?? keys.keys[0].kid!)]
        return try JWSSigner.signES256(payload: payload, header: header, key: signer ?? key)
    }

    @Test func acceptsAValidToken() throws {
        let verified = try verifier.verify(try token(claims()), accessToken: accessToken, keys: keys)
        #expect(verified.subject == "usr_1")
        #expect(verified.email == "ada@example.com")
        #expect(verified.emailVerified == true)
        #expect(verified.authenticationMethods == ["otp"])
        #expect(verified.sessionID == "ses_1")
        #expect(verified.phoneNumber == nil)
    }

    /// An account known only by its phone number: its ID token names the number.
    @Test func readsThePhoneNumber() throws {
        let phoneOnly = claims(["email": nil, "email_verified": nil, "phone_number": .string("+14155550123"), "phone_number_verified": .bool(true)])
        let verified = try verifier.verify(try token(phoneOnly), accessToken: accessToken, keys: keys)
        #expect(verified.phoneNumber == "+14155550123" && verified.email == nil)
    }

    @Test(arguments: [
        ("iss", JSONValue.string("https://evil.example.com")),
        ("aud", JSONValue.string("cfg_other")),
        ("azp", JSONValue.string("cfg_other")),
        ("exp", JSONValue.number(1_800_000_000 - 61)),
        ("iat", JSONValue.number(1_800_000_000 + 61)),
        ("sub", JSONValue.string("")),
        ("at_hash", JSONValue.string("AAAAAAAAAAAAAAAAAAAAAA")),
    ])
    func refusesAWrongClaim(name: String, value: JSONValue) throws {
        let idToken = try token(claims([name: value]))
        #expect(throws: KeywayError.self) { try verifier.verify(idToken, accessToken: accessToken, keys: keys) }
    }

    @Test func multipleAudiencesNeedTheAuthorizedParty() throws {
        let idToken = try token(claims(["aud": .array([.string("cfg_app"), .string("cfg_api")]), "azp": nil]))
        #expect(throws: KeywayError.self) { try verifier.verify(idToken, keys: keys) }
        let withAzp = try token(claims(["aud": .array([.string("cfg_app"), .string("cfg_api")])]))
        #expect(try verifier.verify(withAzp, keys: keys).audience == ["cfg_app", "cfg_api"])
    }

    @Test func leewayAllowsSmallClockSkew() throws {
        let idToken = try token(claims(["exp": .number(now.timeIntervalSince1970 - 30)]))
        #expect(try verifier.verify(idToken, keys: keys).subject == "usr_1")
    }

    @Test func refusesAnotherKeysSignatureAndAnUnknownKid() throws {
        let forged = try token(claims(), signer: P256.Signing.PrivateKey())
        #expect(throws: KeywayError.self) { try verifier.verify(forged, keys: keys) }
        let unknown = try token(claims(), kid: "nope")
        #expect(throws: KeywayError.self) { try verifier.verify(unknown, keys: keys) }
    }

    @Test func refusesOtherAlgorithmsAndGarbage() throws {
        let parts = try token(claims()).split(separator: ".")
        let none = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8)) + "." + parts[1] + "."
        #expect(throws: KeywayError.self) { try verifier.verify(none, keys: keys) }
        #expect(throws: KeywayError.self) { try verifier.verify("not-a-token", keys: keys) }
    }

    @Test func checksTheNonceWhenOneWasSent() throws {
        let idToken = try token(claims(["nonce": .string("n-0S6_WzA2Mj")]))
        #expect(try verifier.verify(idToken, nonce: "n-0S6_WzA2Mj", keys: keys).nonce == "n-0S6_WzA2Mj")
        #expect(throws: KeywayError.invalidIDToken("The nonce does not match the one the sign-in was started with.")) {
            try verifier.verify(idToken, nonce: "n-other", keys: keys)
        }
        // Not sent: not checked, but still reported.
        #expect(try verifier.verify(idToken, keys: keys).nonce == "n-0S6_WzA2Mj")
    }

    @Test func refusesATokenWithoutTheNonceItExpects() throws {
        let idToken = try token(claims())
        #expect(throws: KeywayError.invalidIDToken("The nonce is missing.")) {
            try verifier.verify(idToken, nonce: "n-0S6_WzA2Mj", keys: keys)
        }
        #expect(try verifier.verify(idToken, keys: keys).nonce == nil)
    }
}
