import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

@testable import Keyway

/// A clock that stays where it is put.
private struct FixedClock: KeywayClock {
    let instant: Date
    func now() -> Date { instant }
}

@Suite("What a session stores")
struct StoredTokensTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func idToken(subject: String = "usr_1") throws -> String {
        let claims: [String: JSONValue] = [
            "iss": .string("https://auth.example.com"), "sub": .string(subject), "aud": .string("cfg_app"),
            "exp": .number(now.timeIntervalSince1970 + 3600), "iat": .number(now.timeIntervalSince1970),
            "email": .string("ada@example.com"), "email_verified": .bool(true), "amr": .array([.string("otp")]),
            "sid": .string("ses_1"), "is_anonymous": .bool(false),
        ]
        return try JWSSigner.signES256(
            payload: try JSONEncoder().encode(JSONValue.object(claims)), header: ["typ": .string("JWT")],
            key: P256.Signing.PrivateKey())
    }

    /// An entry as sessions wrote it before they kept the response's type, scope and claims.
    func legacyEntry(idToken: String?, subject: String = "usr_1") throws -> Data {
        var entry: [String: Any] = [
            "accessToken": "at-1", "refreshToken": "rt-1", "accessTokenExpiresAt": now.addingTimeInterval(600).timeIntervalSinceReferenceDate,
            "subject": subject, "email": "ada@example.com", "emailVerified": true,
        ]
        if let idToken { entry["idToken"] = idToken }
        return try JSONSerialization.data(withJSONObject: entry)
    }

    @Test func aSavedTokenSetReadsBackWhole() throws {
        let claims = IDTokenClaims(
            issuer: "https://auth.example.com", subject: "usr_1", audience: ["cfg_app"], expiresAt: now.addingTimeInterval(3600),
            issuedAt: now, authTime: now, authenticationMethods: ["otp", "mfa"], email: "ada@example.com",
            emailVerified: true, sessionID: "ses_1")
        let set = TokenSet(
            response: TokenResponse(
                accessToken: "at-1", tokenType: "DPoP", expiresIn: 600, idToken: Sensitive(try idToken()),
                refreshToken: "rt-1", scope: "openid email offline_access", issuedTokenType: nil),
            idToken: claims, accessTokenExpiresAt: now.addingTimeInterval(600))
        let stored = try JSONDecoder().decode(StoredTokens.self, from: JSONEncoder().encode(StoredTokens(set)))
        let read = stored.tokenSet(now: now.addingTimeInterval(100))
        #expect(read.idToken == claims)
        #expect(read.response.tokenType == "DPoP")
        #expect(read.response.scope == "openid email offline_access")
        #expect(read.response.expiresIn == 500, "what is left of the lifetime when read")
        #expect(read.response.refreshToken == "rt-1")
        #expect(read.accessTokenExpiresAt == set.accessTokenExpiresAt)
    }

    @Test func anOlderEntryTakesItsClaimsFromItsStoredIDToken() throws {
        let stored = try JSONDecoder().decode(StoredTokens.self, from: legacyEntry(idToken: try idToken()))
        let read = stored.tokenSet(now: now)
        #expect(read.idToken.subject == "usr_1")
        #expect(read.idToken.email == "ada@example.com")
        #expect(read.idToken.authenticationMethods == ["otp"])
        #expect(read.idToken.sessionID == "ses_1")
        #expect(read.response.tokenType == "Bearer")
        #expect(read.response.expiresIn == 600)
    }

    @Test func anOlderEntryWithoutAReadableIDTokenIsNoSession() throws {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StoredTokens.self, from: legacyEntry(idToken: nil)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StoredTokens.self, from: legacyEntry(idToken: "not.a.token"))
        }
        // An ID token of another user than the entry's is not read as its claims.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StoredTokens.self, from: legacyEntry(idToken: try idToken(subject: "usr_2")))
        }
    }

    @Test func theSessionReadsAnOlderEntryAndForgetsAnUnreadableOne() async throws {
        let storage = InMemorySecureStorage()
        let keyway = try KeywayClient(
            configID: "cfg_app", baseURL: URL(string: "https://auth.example.com")!,
            options: KeywayOptions(storage: storage, clock: FixedClock(instant: now)))
        let session = keyway.session
        try await storage.write(key: session.storageKey(account: "usr_1"), data: legacyEntry(idToken: try idToken()))
        try await storage.write(key: session.indexKey, data: Data(#"{"current":"usr_1","accounts":["usr_1"]}"#.utf8))
        #expect(try await session.tokens()?.idToken.email == "ada@example.com")
        #expect(try await session.accessToken() == "at-1")

        try await storage.write(key: session.storageKey(account: "usr_1"), data: legacyEntry(idToken: nil))
        #expect(try await session.tokens() == nil)
        #expect(try await session.accounts().isEmpty)
    }
}
