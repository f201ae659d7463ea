import Crypto
import CryptoExtras
import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// An external issuer for the tests: signs JWTs with its own ES256 or RS256 key.
struct ExternalIssuer {
    static let issuer = "https://legacy-auth.example.com"
    static let audience = "keyway-migration"

    let ecKey = P256.Signing.PrivateKey()
    let rsaKey: _RSA.Signing.PrivateKey

    /// One RSA key for the whole run: generating a 2048-bit key can take seconds in a debug build,
    /// holding a thread of the shared concurrency pool all that time.
    static let sharedRSAKey = Result { try _RSA.Signing.PrivateKey(keySize: .bits2048) }

    init() throws {
        rsaKey = try Self.sharedRSAKey.get()
    }

    var ecJWK: JSONWebKey {
        var jwk = ECJWK.publicJWK(for: ecKey.publicKey)
        jwk.kid = "ec-1"
        return jwk
    }

    var rsaJWK: JSONWebKey {
        let der = rsaKey.publicKey.pkcs1DERRepresentation
        let (n, e) = Self.rsaComponents(pkcs1: Array(der))
        return JSONWebKey(kty: "RSA", kid: "rsa-1", use: "sig", alg: "RS256", n: Base64URL.encode(n), e: Base64URL.encode(e))
    }

    var trusted: TrustedIssuer {
        TrustedIssuer(issuer: Self.issuer, audience: Self.audience, keys: JSONWebKeySet(keys: [ecJWK, rsaJWK]))
    }

    /// Standard claims for `subject`, valid for five minutes from `now`.
    func claims(subject: String, email: String?, verified: Bool = true, now: Date) -> [String: JSONValue] {
        let iat = now.timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(Self.issuer), "sub": .string(subject), "aud": .array([.string(Self.audience), .string("other")]),
            "iat": .number(iat), "exp": .number(iat + 300),
        ]
        if let email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(verified)
        }
        return claims
    }

    func es256(_ claims: [String: JSONValue], kid: String = "ec-1", key: P256.Signing.PrivateKey? = nil) throws -> String {
        try JWSSigner.signES256(
            payload: Data(JSONValue.object(claims).serialized().utf8),
            header: ["typ": .string("JWT"), "kid": .string(kid)], key: key ?? ecKey)
    }

    func rs256(_ claims: [String: JSONValue]) throws -> String {
        let header = Base64URL.encode(Array(JSONValue.object(["alg": .string("RS256"), "kid": .string("rsa-1")]).serialized().utf8))
        let payload = Base64URL.encode(Array(JSONValue.object(claims).serialized().utf8))
        let signature = try rsaKey.signature(for: Data("\(header).\(payload)".utf8), padding: .insecurePKCS1v1_5)
        return "\(header).\(payload).\(Base64URL.encode(signature.rawRepresentation))"
    }

    /// Reads `n` and `e` from a PKCS#1 RSAPublicKey (SEQUENCE { INTEGER n, INTEGER e }).
    static func rsaComponents(pkcs1 der: [UInt8]) -> (n: [UInt8], e: [UInt8]) {
        var index = 0
        func length() -> Int {
            let first = Int(der[index]); index += 1
            guard first & 0x80 != 0 else { return first }
            var value = 0
            for _ in 0..<(first & 0x7F) { value = value << 8 | Int(der[index]); index += 1 }
            return value
        }
        func integer() -> [UInt8] {
            index += 1  // INTEGER tag
            let count = length()
            var bytes = Array(der[index..<index + count])
            index += count
            while bytes.count > 1, bytes[0] == 0 { bytes.removeFirst() }
            return bytes
        }
        index += 1  // SEQUENCE tag
        _ = length()
        let n = integer()
        return (n, integer())
    }
}

@Suite("Token exchange (RFC 8693) from a trusted external issuer")
struct TokenExchangeTests {
    static let exchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let jwtType = "urn:ietf:params:oauth:token-type:jwt"

    /// Runs `body` with a started server trusting a new external issuer, its clock and an SDK;
    /// stops the server after.
    func withStartedServer(_ body: (TestServer, ManualClock, ExternalIssuer, KeywayClient) async throws -> Void) async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let external = try ExternalIssuer()
            try await server.app.trustIssuer(external.trusted)
            try await body(server, clock, external, try makeKeyway(server, clock: clock))
        }
    }

    func exchangeForm(_ token: String, extra: [String: String] = [:]) -> [String: String] {
        var form = [
            "grant_type": Self.exchangeGrant, "subject_token": token, "subject_token_type": Self.jwtType,
            "client_id": TestServer.configId,
        ]
        for (key, value) in extra { form[key] = value }
        return form
    }

    @Test func aNewIdentityBecomesAUserAndKeepsIt() async throws {
        try await withStartedServer { server, clock, external, keyway in
            let token = try external.es256(external.claims(subject: "legacy-42", email: "Moved@Example.com", now: clock.now()))
            let first = try await keyway.tokens.exchange(externalToken: Sensitive(token))
            #expect(first.response.issuedTokenType == "urn:ietf:params:oauth:token-type:access_token")
            #expect(first.response.tokenType == "Bearer")
            #expect(first.response.refreshToken != nil)
            #expect(first.idToken.authenticationMethods == ["fed"])
            let info = try await keyway.tokenClient.userInfo(accessToken: first.response.accessToken)
            #expect(info.email == "moved@example.com")

            // A later token for the same subject, even with another email, finds the same user.
            clock.advance(by: 60)
            let later = try external.rs256(external.claims(subject: "legacy-42", email: "changed@example.com", now: clock.now()))
            let second = try await keyway.tokens.exchange(externalToken: Sensitive(later), type: .idToken)
            #expect(second.idToken.subject == first.idToken.subject)
            #expect(try await server.rowCount("users") == 1)

            // The exchanged sign-in's refresh token rotates like any other.
            let refreshed = try await keyway.tokens.refresh(refreshToken: try #require(second.response.refreshToken))
            #expect(refreshed.idToken.subject == first.idToken.subject)
        }
    }

    @Test func aVerifiedEmailLinksToTheExistingUser() async throws {
        try await withStartedServer { server, clock, external, keyway in
            await keyway.flow.start(identifier: "existing@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "existing@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let signedIn = try await keyway.tokens.exchange(
                authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))

            let token = try external.es256(external.claims(subject: "legacy-7", email: "existing@example.com", now: clock.now()))
            let exchanged = try await keyway.tokens.exchange(externalToken: Sensitive(token))
            #expect(exchanged.idToken.subject == signedIn.idToken.subject)
            #expect(try await server.rowCount("external_identities") == 1)
        }
    }

    @Test func everyUnverifiableTokenIsInvalidGrantAndCreatesNothing() async throws {
        try await withStartedServer { server, clock, external, keyway in
            let now = clock.now()
            let good = external.claims(subject: "s-1", email: "nobody@example.com", now: now)
            var wrongIssuer = good
            wrongIssuer["iss"] = .string("https://evil.example.com")
            var wrongAudience = good
            wrongAudience["aud"] = .string("someone-else")
            var expired = good
            expired["exp"] = .number(now.timeIntervalSince1970 - 61)
            var notYet = good
            notYet["nbf"] = .number(now.timeIntervalSince1970 + 120)
            var noExpiry = good
            noExpiry["exp"] = nil
            var noSubject = good
            noSubject["sub"] = nil
            let unverifiedEmail = external.claims(subject: "s-2", email: "nobody@example.com", verified: false, now: now)
            let noEmail = external.claims(subject: "s-3", email: nil, now: now)

            let tampered: String = try {
                var parts = try external.es256(good).split(separator: ".").map(String.init)
                var claims = good
                claims["sub"] = .string("someone-else")
                parts[1] = Base64URL.encode(Array(JSONValue.object(claims).serialized().utf8))
                return parts.joined(separator: ".")
            }()
            let tamperedRSA: String = try {
                var parts = try external.rs256(good).split(separator: ".").map(String.init)
                var claims = good
                claims["sub"] = .string("rsa-someone-else")
                parts[1] = Base64URL.encode(Array(JSONValue.object(claims).serialized().utf8))
                return parts.joined(separator: ".")
            }()
            let unsigned: String = {
                let header = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8))
                return "\(header).\(Base64URL.encode(Array(JSONValue.object(good).serialized().utf8)))."
            }()
            let cases: [(String, String)] = [
                ("another key", try external.es256(good, key: P256.Signing.PrivateKey())),
                ("unknown kid", try external.es256(good, kid: "ec-9")),
                ("tampered", tampered),
                ("tampered RS256", tamperedRSA),
                ("alg none", unsigned),
                ("untrusted issuer", try external.es256(wrongIssuer)),
                ("wrong audience", try external.es256(wrongAudience)),
                ("expired", try external.es256(expired)),
                ("not yet valid", try external.es256(notYet)),
                ("no expiry", try external.es256(noExpiry)),
                ("no subject", try external.es256(noSubject)),
                ("unverified email", try external.es256(unverifiedEmail)),
                ("no email", try external.es256(noEmail)),
                ("not a JWT", "abc.def"),
            ]
            for (name, token) in cases {
                let answer = try await server.token(exchangeForm(token))
                #expect(answer.status == 400, "\(name)")
                #expect(answer.json["error"] as? String == "invalid_grant", "\(name)")
                #expect((answer.json["error_description"] as? String)?.isEmpty == false, "\(name)")
            }
            for table in ["users", "sessions", "refresh_tokens", "external_identities"] {
                #expect(try await server.rowCount(table) == 0, "\(table)")
            }
            // The SDK surfaces the refusal as an OAuth error.
            await #expect(throws: KeywayError.self) {
                _ = try await keyway.tokens.exchange(externalToken: Sensitive(try external.es256(expired)))
            }
        }
    }

    @Test func anIssuerThatMayNotCreateUsersOnlyLinks() async throws {
        try await withStartedServer { server, clock, external, keyway in
            var trusted = external.trusted
            trusted.createUsers = false
            try await server.app.trustIssuer(trusted)
            let token = try external.es256(external.claims(subject: "s-4", email: "new@example.com", now: clock.now()))
            let answer = try await server.token(exchangeForm(token))
            #expect(answer.json["error"] as? String == "invalid_grant")
            #expect(try await server.rowCount("users") == 0)

            // Once the issuer is no longer trusted, even a linked subject is refused.
            trusted.createUsers = true
            try await server.app.trustIssuer(trusted)
            _ = try await keyway.tokens.exchange(externalToken: Sensitive(token))
            try await server.app.distrustIssuer(ExternalIssuer.issuer)
            let after = try await server.token(exchangeForm(try external.es256(external.claims(subject: "s-4", email: nil, now: clock.now()))))
            #expect(after.json["error"] as? String == "invalid_grant")
        }
    }

    @Test func malformedRequestsAreRefusedWithTheirOwnErrors() async throws {
        try await withStartedServer { server, clock, external, _ in
            let token = try external.es256(external.claims(subject: "s-5", email: "x@example.com", now: clock.now()))
            var missingType = exchangeForm(token)
            missingType["subject_token_type"] = nil
            var missingToken = exchangeForm(token)
            missingToken["subject_token"] = nil
            let cases: [([String: String], String)] = [
                (missingType, "invalid_request"),
                (missingToken, "invalid_request"),
                (exchangeForm(token, extra: ["subject_token_type": "urn:ietf:params:oauth:token-type:saml2"]), "invalid_request"),
                (exchangeForm(token, extra: ["actor_token": token, "actor_token_type": Self.jwtType]), "invalid_request"),
                (exchangeForm(token, extra: ["requested_token_type": "urn:ietf:params:oauth:token-type:saml2"]), "invalid_request"),
                (exchangeForm(token, extra: ["audience": "https://api.other.example"]), "invalid_target"),
                (exchangeForm(token, extra: ["scope": "openid admin"]), "invalid_scope"),
                (exchangeForm(token, extra: ["client_id": "cfg_unknown"]), "invalid_client"),
            ]
            for (form, error) in cases {
                let answer = try await server.token(form)
                #expect(answer.json["error"] as? String == error, "\(form)")
            }
            #expect(try await server.rowCount("users") == 0)
            // A narrower scope and this server as audience are accepted.
            let narrowed = try await server.token(
                exchangeForm(token, extra: ["scope": "openid", "audience": server.baseURL.absoluteString]))
            #expect(narrowed.status == 200)
            #expect(narrowed.json["scope"] as? String == "openid")
            #expect(narrowed.json["issued_token_type"] as? String == "urn:ietf:params:oauth:token-type:access_token")
        }
    }

    @Test func invalidIssuerConfigurationsAreRefused() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let external = try ExternalIssuer()
            let weak = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
            let (n, e) = ExternalIssuer.rsaComponents(pkcs1: Array(weak.publicKey.pkcs1DERRepresentation))
            let weakJWK = JSONWebKey(kty: "RSA", kid: "weak", n: Base64URL.encode(n), e: Base64URL.encode(e))
            var duplicate = external.rsaJWK
            duplicate.kid = "ec-1"
            let invalid: [TrustedIssuer] = [
                TrustedIssuer(issuer: "", audience: "a", keys: JSONWebKeySet(keys: [external.ecJWK])),
                TrustedIssuer(issuer: ExternalIssuer.issuer, audience: "", keys: JSONWebKeySet(keys: [external.ecJWK])),
                TrustedIssuer(issuer: ExternalIssuer.issuer, audience: "a", keys: JSONWebKeySet(keys: [])),
                TrustedIssuer(issuer: ExternalIssuer.issuer, audience: "a", keys: JSONWebKeySet(keys: [weakJWK])),
                TrustedIssuer(issuer: ExternalIssuer.issuer, audience: "a", keys: JSONWebKeySet(keys: [JSONWebKey(kty: "oct")])),
                TrustedIssuer(issuer: ExternalIssuer.issuer, audience: "a", keys: JSONWebKeySet(keys: [external.ecJWK, duplicate])),
            ]
            for configuration in invalid {
                await #expect(throws: ConfigurationError.self) { try await server.app.trustIssuer(configuration) }
            }
            #expect(try await server.rowCount("trusted_issuers") == 0)
        }
    }

    @Test func discoveryListsTheGrant() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let response = try await server.request("GET", "/.well-known/openid-configuration")
            let document = try JSONDecoder().decode(DiscoveryDocument.self, from: response.body)
            #expect(document.grantTypesSupported.contains(Self.exchangeGrant))
        }
    }
}

@Suite("Token exchange with the issuer's key set fetched from its jwks_uri on loopback")
struct TokenExchangeJWKSURLTests {
    @Test func keysAreFetchedCachedRefetchedOnRotationAndKeptWhenTheIssuerIsDown() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let external = try ExternalIssuer()
            let published = JWKSServer(keys: JSONWebKeySet(keys: [external.ecJWK]))
            try await published.start()
            try await server.app.trustIssuer(
                TrustedIssuer(issuer: ExternalIssuer.issuer, audience: ExternalIssuer.audience, jwksURL: published.url))
            let keyway = try makeKeyway(server, clock: clock)

            let first = try external.es256(external.claims(subject: "u-1", email: "u1@example.com", now: clock.now()))
            let tokens = try await keyway.tokens.exchange(externalToken: Sensitive(first))
            #expect(published.requestCount == 1)
            _ = try await keyway.tokens.exchange(
                externalToken: Sensitive(try external.es256(external.claims(subject: "u-1", email: nil, now: clock.now()))))
            #expect(published.requestCount == 1, "the key set is cached")

            // The issuer rotates to its RSA key: a token with the new kid triggers one refetch (no
            // sooner than 30 seconds after the last one).
            published.publish(JSONWebKeySet(keys: [external.rsaJWK]))
            clock.advance(by: 31)
            let rotated = try await keyway.tokens.exchange(
                externalToken: Sensitive(try external.rs256(external.claims(subject: "u-1", email: nil, now: clock.now()))))
            #expect(rotated.idToken.subject == tokens.idToken.subject)
            #expect(published.requestCount == 2)

            // Made-up kids right after do not make the server fetch again.
            for kid in ["x-1", "x-2", "x-3"] {
                let bogus = try external.es256(external.claims(subject: "u-1", email: nil, now: clock.now()), kid: kid)
                let answer = try await server.token(exchangeForm(bogus))
                #expect(answer.json["error"] as? String == "invalid_grant")
            }
            #expect(published.requestCount == 2)

            // The issuer goes down after the cache expired: the last good set keeps serving.
            await published.stop()
            clock.advance(by: 11 * 60)
            let whileDown = try await keyway.tokens.exchange(
                externalToken: Sensitive(try external.rs256(external.claims(subject: "u-1", email: nil, now: clock.now()))))
            #expect(whileDown.idToken.subject == tokens.idToken.subject)
        }
    }

    @Test func anUnreachableKeySetIsInvalidGrantAndCreatesNothing() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let external = try ExternalIssuer()
            // A privileged port nothing listens on (the discard service's): a port another
            // server held a moment ago can be taken by a test running beside this one.
            let unreachable = URL(string: "http://127.0.0.1:9/jwks")!
            try await server.app.trustIssuer(
                TrustedIssuer(issuer: ExternalIssuer.issuer, audience: ExternalIssuer.audience, jwksURL: unreachable))
            let token = try external.es256(external.claims(subject: "u-2", email: "u2@example.com", now: clock.now()))
            let answer = try await server.token(exchangeForm(token))
            #expect(answer.status == 400)
            #expect(answer.json["error"] as? String == "invalid_grant")
            #expect(try await server.rowCount("users") == 0)
            // Within 30 seconds of a failed fetch, the next exchange fails without fetching again.
            let failedFetches = { server.logs.all.filter { $0.contains("JWKS fetch failed") }.count }
            #expect(failedFetches() == 1)
            #expect(try await server.token(exchangeForm(token)).json["error"] as? String == "invalid_grant")
            #expect(failedFetches() == 1)
            clock.advance(by: 31)
            #expect(try await server.token(exchangeForm(token)).json["error"] as? String == "invalid_grant")
            #expect(failedFetches() == 2)

            // Only https, or http on loopback, may be fetched.
            await #expect(throws: ConfigurationError.self) {
                try await server.app.trustIssuer(
                    TrustedIssuer(
                        issuer: "https://other.example", audience: "a", jwksURL: URL(string: "http://keys.example.com/jwks")!))
            }
        }
    }

    func exchangeForm(_ token: String) -> [String: String] {
        [
            "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "subject_token": token,
            "subject_token_type": "urn:ietf:params:oauth:token-type:jwt", "client_id": TestServer.configId,
        ]
    }
}
