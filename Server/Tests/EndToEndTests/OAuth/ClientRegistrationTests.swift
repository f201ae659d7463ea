import Crypto
import CryptoExtras
import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Builds client assertions (RFC 7523) the way a client's backend would.
struct AssertionSigner {
    enum Key {
        case ec(P256.Signing.PrivateKey, kid: String)
        case rsa(_RSA.Signing.PrivateKey, kid: String)
        case secret(String)
    }

    let clientId: String
    let key: Key

    func assertion(
        audience: String, now: Date, lifetime: TimeInterval = 120, jti: String = UUID().uuidString,
        issuer: String? = nil, overrides: [String: JSONValue] = [:]
    ) throws -> String {
        let iat = now.timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(issuer ?? clientId), "sub": .string(clientId), "aud": .string(audience),
            "iat": .number(iat), "exp": .number(iat + lifetime), "jti": .string(jti),
        ]
        claims.merge(overrides) { _, override in override }
        let payload = Base64URL.encode(Array(JSONValue.object(claims).serialized().utf8))
        switch key {
        case .ec(let key, let kid):
            return try JWSSigner.signES256(
                payload: Data(JSONValue.object(claims).serialized().utf8), header: ["kid": .string(kid)], key: key)
        case .rsa(let key, let kid):
            return try JWSSigner.signRS256(
                payload: Data(JSONValue.object(claims).serialized().utf8), header: ["kid": .string(kid)], key: key)
        case .secret(let secret):
            let header = Base64URL.encode(Array(JSONValue.object(["alg": .string("HS256")]).serialized().utf8))
            let mac = HMAC<SHA256>.authenticationCode(
                for: Data("\(header).\(payload)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
            return "\(header).\(payload).\(Base64URL.encode(Array(mac)))"
        }
    }
}

@Suite("Dynamic client registration (RFC 7591) and JWT client authentication (RFC 7523)")
struct ClientRegistrationTests {
    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// Runs `body` with a started server, its clock and an initial access token; stops the server after.
    func withStartedServer(_ body: (TestServer, ManualClock, String) async throws -> Void) async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let token = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId)
            try await body(server, clock, token.revealed)
        }
    }

    /// The redirect URI registered for clients whose metadata names none.
    static let redirectURI = "https://client.example.com/callback"

    /// Registers a client with `metadata`; unless `defaultRedirect` is false, a metadata without
    /// `redirect_uris` gets ``redirectURI`` (the `authorization_code` grant needs one).
    func register(_ server: TestServer, token: String?, _ metadata: [String: Any], defaultRedirect: Bool = true)
        async throws -> (status: Int, headers: [String: String], json: [String: Any])
    {
        var metadata = metadata
        if defaultRedirect, metadata["redirect_uris"] == nil { metadata["redirect_uris"] = [Self.redirectURI] }
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        let response = try await server.request(
            "POST", "/oauth2/register", headers: headers, body: try JSONSerialization.data(withJSONObject: metadata))
        return (response.status, response.headers, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// Authenticates at the revocation endpoint (revoking an unknown token answers 200 once the
    /// client is authenticated).
    func authenticate(_ server: TestServer, _ form: [String: String], headers: [String: String] = [:]) async throws
        -> (status: Int, json: [String: Any])
    {
        var form = form
        form["token"] = "krt_unknown"
        return try await server.form("/oauth2/revoke", form, headers: headers)
    }

    func assertionForm(_ assertion: String) -> [String: String] {
        ["client_assertion_type": Self.assertionType, "client_assertion": assertion]
    }

    /// Runs a sign-in flow for `clientId` and returns the code and its verifier.
    func code(_ server: TestServer, clock: ManualClock, clientId: String, email: String) async throws
        -> (code: String, verifier: String)
    {
        let keyway = try KeywayClient(configID: clientId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return (completion.authCode.revealed, try #require(completion.codeVerifier).revealed)
    }

    @Test func privateKeyJWTClientSignsInWithES256AndRS256Assertions() async throws {
        try await withStartedServer { server, clock, token in
            let ecKey = P256.Signing.PrivateKey()
            let rsaKey = try ExternalIssuer.sharedRSAKey.get()
            var ecJWK = ECJWK.publicJWK(for: ecKey.publicKey)
            ecJWK.kid = "ec"
            let (n, e) = ExternalIssuer.rsaComponents(pkcs1: Array(rsaKey.publicKey.pkcs1DERRepresentation))
            let rsaJWK = JSONWebKey(kty: "RSA", kid: "rsa", n: Base64URL.encode(n), e: Base64URL.encode(e))
            let keys = try JSONSerialization.jsonObject(with: JSONEncoder().encode(JSONWebKeySet(keys: [ecJWK, rsaJWK])))
            let registered = try await register(server, token: token, [
                "client_name": "Billing backend", "token_endpoint_auth_method": "private_key_jwt",
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"], "jwks": keys,
                "redirect_uris": ["https://billing.example.com/cb"],
            ])
            #expect(registered.status == 201)
            #expect(registered.headers["cache-control"] == "no-store")
            let clientId = try #require(registered.json["client_id"] as? String)
            #expect(registered.json["client_secret"] == nil)
            #expect(registered.json["token_endpoint_auth_method"] as? String == "private_key_jwt")
            #expect(registered.json["grant_types"] as? [String] == ["authorization_code", "refresh_token"])
            #expect(registered.json["client_name"] as? String == "Billing backend")
            #expect(registered.json["redirect_uris"] as? [String] == ["https://billing.example.com/cb"])
            #expect(registered.json["scope"] as? String == "openid profile email phone offline_access")

            let tokenURL = "\(server.baseURL.absoluteString)/oauth2/token"
            let ec = AssertionSigner(clientId: clientId, key: .ec(ecKey, kid: "ec"))
            let rsa = AssertionSigner(clientId: clientId, key: .rsa(rsaKey, kid: "rsa"))
            let (code, verifier) = try await self.code(server, clock: clock, clientId: clientId, email: "pkj@example.com")
            var form = assertionForm(try ec.assertion(audience: tokenURL, now: clock.now()))
            form["grant_type"] = "authorization_code"
            form["code"] = code
            form["code_verifier"] = verifier
            let redeemed = try await server.token(form)
            #expect(redeemed.status == 200, "\(redeemed.json)")
            let refreshToken = try #require(redeemed.json["refresh_token"] as? String)

            var refresh = assertionForm(try rsa.assertion(audience: server.baseURL.absoluteString, now: clock.now()))
            refresh["grant_type"] = "refresh_token"
            refresh["refresh_token"] = refreshToken
            let refreshed = try await server.token(refresh)
            #expect(refreshed.status == 200, "\(refreshed.json)")

            // Without an assertion, the confidential client cannot redeem anything.
            let (code2, verifier2) = try await self.code(server, clock: clock, clientId: clientId, email: "pkj2@example.com")
            let bare = try await server.token([
                "grant_type": "authorization_code", "code": code2, "code_verifier": verifier2, "client_id": clientId,
            ])
            #expect(bare.status == 401)
            #expect(bare.json["error"] as? String == "invalid_client")
        }
    }

    @Test func assertionsAreCheckedToTheLetter() async throws {
        try await withStartedServer { server, clock, token in
            let key = P256.Signing.PrivateKey()
            var jwk = ECJWK.publicJWK(for: key.publicKey)
            jwk.kid = "k1"
            let keys = try JSONSerialization.jsonObject(with: JSONEncoder().encode(JSONWebKeySet(keys: [jwk])))
            let registered = try await register(server, token: token, ["token_endpoint_auth_method": "private_key_jwt", "jwks": keys])
            let clientId = try #require(registered.json["client_id"] as? String)
            let signer = AssertionSigner(clientId: clientId, key: .ec(key, kid: "k1"))
            let issuer = server.baseURL.absoluteString
            let now = clock.now()

            let good = try signer.assertion(audience: issuer, now: now, jti: "once")
            #expect(try await authenticate(server, assertionForm(good)).status == 200)
            let stranger = AssertionSigner(clientId: clientId, key: .ec(P256.Signing.PrivateKey(), kid: "k1"))
            let hmac = AssertionSigner(clientId: clientId, key: .secret("guess"))
            let cases: [(String, [String: String], [String: String])] = [
                ("replayed jti", assertionForm(good), [:]),
                ("wrong audience", assertionForm(try signer.assertion(audience: "https://elsewhere.example", now: now)), [:]),
                ("expired", assertionForm(try signer.assertion(audience: issuer, now: now.addingTimeInterval(-600))), [:]),
                ("lives too long", assertionForm(try signer.assertion(audience: issuer, now: now, lifetime: 2 * 3600)), [:]),
                ("another key", assertionForm(try stranger.assertion(audience: issuer, now: now)), [:]),
                ("iss is not the client", assertionForm(try signer.assertion(audience: issuer, now: now, issuer: "someone")), [:]),
                ("HS256 for a key client", assertionForm(try hmac.assertion(audience: issuer, now: now)), [:]),
                ("a secret instead", ["client_id": clientId, "client_secret": "kcs_guess"], [:]),
                ("no authentication", ["client_id": clientId], [:]),
            ]
            for (name, form, headers) in cases {
                let answer = try await authenticate(server, form, headers: headers)
                #expect(answer.status == 401, "\(name)")
                #expect(answer.json["error"] as? String == "invalid_client", "\(name)")
            }
            var wrongType = assertionForm(try signer.assertion(audience: issuer, now: now))
            wrongType["client_assertion_type"] = "urn:ietf:params:oauth:client-assertion-type:saml2-bearer"
            #expect(try await authenticate(server, wrongType).json["error"] as? String == "invalid_request")
            var mismatched = assertionForm(try signer.assertion(audience: issuer, now: now))
            mismatched["client_id"] = TestServer.configId
            #expect(try await authenticate(server, mismatched).json["error"] as? String == "invalid_request")

            // A replay is refused across a restart: the used jti is in the database.
            await server.stop()
            try await withTestServer(TestServer.start(database: server.database, clock: clock)) { restarted in
                let replay = try await authenticate(restarted, assertionForm(good))
                #expect(replay.status == 401)
            }
        }
    }

    @Test func clientSecretJWTAndSecretClients() async throws {
        try await withStartedServer { server, clock, token in
            let issuer = server.baseURL.absoluteString
            let jwtClient = try await register(server, token: token, [
                "token_endpoint_auth_method": "client_secret_jwt", "token_endpoint_auth_signing_alg": "HS256",
            ])
            #expect(jwtClient.status == 201)
            let jwtId = try #require(jwtClient.json["client_id"] as? String)
            let jwtSecret = try #require(jwtClient.json["client_secret"] as? String)
            #expect(jwtClient.json["client_secret_expires_at"] as? Int == 0)
            let signer = AssertionSigner(clientId: jwtId, key: .secret(jwtSecret))
            #expect(try await authenticate(server, assertionForm(try signer.assertion(audience: issuer, now: clock.now()))).status == 200)
            let wrong = AssertionSigner(clientId: jwtId, key: .secret(jwtSecret + "x"))
            #expect(try await authenticate(server, assertionForm(try wrong.assertion(audience: issuer, now: clock.now()))).status == 401)
            // The secret of a client_secret_jwt client is not accepted as a plain secret.
            #expect(try await authenticate(server, ["client_id": jwtId, "client_secret": jwtSecret]).status == 401)

            let basicClient = try await register(server, token: token, [:])
            #expect(basicClient.json["token_endpoint_auth_method"] as? String == "client_secret_basic")
            let basicId = try #require(basicClient.json["client_id"] as? String)
            let basicSecret = try #require(basicClient.json["client_secret"] as? String)
            let basic = "Basic " + Data("\(basicId):\(basicSecret)".utf8).base64EncodedString()
            #expect(try await authenticate(server, [:], headers: ["Authorization": basic]).status == 200)
            // Registered for Basic: the same secret in the form is refused.
            #expect(try await authenticate(server, ["client_id": basicId, "client_secret": basicSecret]).status == 401)

            let postClient = try await register(server, token: token, ["token_endpoint_auth_method": "client_secret_post"])
            let postId = try #require(postClient.json["client_id"] as? String)
            let postSecret = try #require(postClient.json["client_secret"] as? String)
            #expect(try await authenticate(server, ["client_id": postId, "client_secret": postSecret]).status == 200)
        }
    }

    @Test func aPublicClientInheritsTheTemplateAndItsGrantTypesAreEnforced() async throws {
        try await withStartedServer { server, clock, token in
            let registered = try await register(server, token: token, ["token_endpoint_auth_method": "none"])
            #expect(registered.status == 201)
            let clientId = try #require(registered.json["client_id"] as? String)
            #expect(registered.json["client_secret"] == nil)
            let keyway = try KeywayClient(configID: clientId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "public@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "public@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            #expect(tokens.idToken.audience == [clientId])
            // Registered for authorization_code only: no refresh token is issued, nor offline access.
            #expect(tokens.response.refreshToken == nil)
            #expect(tokens.response.scope == "openid email")
            #expect(try await server.rowCount("refresh_tokens") == 0)
            // And a refresh token of another client cannot be brought to it.
            await #expect(throws: KeywayError.oauth(
                status: 400,
                error: OAuthErrorResponse(
                    error: "unauthorized_client", errorDescription: "This client is not registered for the grant type refresh_token."))
            ) {
                _ = try await keyway.tokens.refresh(refreshToken: Sensitive("rt-of-someone-else"))
            }
        }
    }

    @Test func registrationNeedsAValidInitialAccessToken() async throws {
        try await withStartedServer { server, clock, token in
            let missing = try await register(server, token: nil, [:])
            #expect(missing.status == 401)
            #expect(missing.headers["www-authenticate"] == #"Bearer realm="keyway""#)
            let wrong = try await register(server, token: "kit_wrong", [:])
            #expect(wrong.status == 401)
            #expect(wrong.json["error"] as? String == "invalid_token")

            let shortLived = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId, expiresIn: 60)
            #expect(try await register(server, token: shortLived.revealed, [:]).status == 201)
            clock.advance(by: 61)
            #expect(try await register(server, token: shortLived.revealed, [:]).status == 401)
            #expect(try await register(server, token: token, [:]).status == 201)
            await #expect(throws: ConfigurationError.self) {
                _ = try await server.app.issueRegistrationToken(templateConfigId: "cfg_nobody")
            }
        }
    }

    @Test func invalidMetadataIsRefusedAndRegistersNothing() async throws {
        try await withStartedServer { server, _, token in
            let before = try await server.rowCount("applications")
            let weakRSA = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024))
            let (n, e) = ExternalIssuer.rsaComponents(pkcs1: Array(weakRSA.publicKey.pkcs1DERRepresentation))
            let weakKeys: [String: Any] = ["keys": [["kty": "RSA", "n": Base64URL.encode(n), "e": Base64URL.encode(e)]]]
            let cases: [[String: Any]] = [
                ["token_endpoint_auth_method": "tls_client_auth"],
                ["token_endpoint_auth_method": "private_key_jwt"],
                ["token_endpoint_auth_method": "private_key_jwt", "jwks_uri": "https://example.com/jwks"],
                ["token_endpoint_auth_method": "private_key_jwt", "jwks": weakKeys],
                ["token_endpoint_auth_method": "private_key_jwt", "jwks": ["keys": "nope"]],
                ["token_endpoint_auth_method": "client_secret_basic", "jwks": ["keys": []]],
                ["token_endpoint_auth_method": "client_secret_jwt", "token_endpoint_auth_signing_alg": "RS256"],
                ["grant_types": ["implicit"]],
                ["grant_types": []],
                ["grant_types": "authorization_code"],
                ["response_types": ["token"]],
                ["client_name": 7],
                ["client_name": String(repeating: "x", count: 101)],
                // One line of visible text, not the consent page's own sentences.
                ["client_name": "Photo Printer\nSigned in as admin@example.com"],
                ["client_name": "Photo\tPrinter"],
                ["client_name": "Photo \u{202E}retnirP"],
                ["client_name": "Zero\u{200B}width"],
                ["client_name": "Your bank is asking for nothing"],
                ["client_name": "Don't allow other apps"],
                // The logo and pages: absolute https URLs without credentials.
                ["logo_uri": "http://client.example.com/logo.png"],
                ["logo_uri": "javascript:alert(1)"],
                ["policy_uri": "https://user:secret@client.example.com/privacy"],
                ["tos_uri": "/terms"],
                ["client_uri": "https://client.example.com/a b"],
                ["client_uri": 7],
                ["policy_uri": "https://client.example.com/" + String(repeating: "p", count: 2000)],
            ]
            for metadata in cases {
                let answer = try await register(server, token: token, metadata)
                #expect(answer.status == 400, "\(metadata)")
                #expect(answer.json["error"] as? String == "invalid_client_metadata", "\(metadata)")
                #expect((answer.json["error_description"] as? String)?.isEmpty == false)
            }
            let notJSON = try await server.request(
                "POST", "/oauth2/register", headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
                body: Data("[1,2".utf8))
            #expect(notJSON.status == 400)
            #expect(try await server.rowCount("applications") == before)
        }
    }

    /// `logo_uri`, `client_uri`, `policy_uri` and `tos_uri` are registered and echoed.
    @Test func theLogoAndPagesAreRegisteredAndEchoed() async throws {
        try await withStartedServer { server, _, token in
            let links = [
                "logo_uri": "https://client.example.com/logo.png", "client_uri": "https://client.example.com/",
                "policy_uri": "https://client.example.com/privacy", "tos_uri": "https://client.example.com/terms",
            ]
            let answer = try await register(server, token: token, links.merging(["client_name": "Linked"]) { $1 })
            #expect(answer.status == 201, "\(answer.json)")
            for (member, value) in links { #expect(answer.json[member] as? String == value, "\(member)") }
            let bare = try await register(server, token: token, ["client_name": "Bare"])
            #expect(bare.status == 201 && bare.json["logo_uri"] == nil && bare.json["tos_uri"] == nil)
        }
    }

    @Test func redirectURIsPostLogoutURIsAndScopesAreRegisteredWithTheClient() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let token = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId).revealed
            let native = try await register(server, token: token, [
                "token_endpoint_auth_method": "none", "client_name": "Notes for iOS",
                "redirect_uris": ["com.example.notes:/oauth/callback", "http://127.0.0.1/cb", "com.example.notes:/oauth/callback"],
                "post_logout_redirect_uris": ["com.example.notes:/signed-out"], "scope": "openid email",
            ])
            #expect(native.status == 201, "\(native.json)")
            #expect(native.json["redirect_uris"] as? [String] == ["com.example.notes:/oauth/callback", "http://127.0.0.1/cb"])
            #expect(native.json["post_logout_redirect_uris"] as? [String] == ["com.example.notes:/signed-out"])
            #expect(native.json["scope"] as? String == "openid email")
            let clientId = try #require(native.json["client_id"] as? String)

            // The admin API shows what was registered: a client that is not first-party.
            let shown = try await server.admin("GET", "/admin/applications/\(clientId)")
            #expect(shown.json["redirectUris"] as? [String] == ["com.example.notes:/oauth/callback", "http://127.0.0.1/cb"])
            #expect(shown.json["postLogoutRedirectUris"] as? [String] == ["com.example.notes:/signed-out"])
            #expect(shown.json["allowedScopes"] as? [String] == ["openid", "email"])
            #expect(shown.json["firstParty"] as? Bool == false)

            // Without the authorization_code grant, no redirect URI is needed.
            let noCode = try await register(
                server, token: token, ["grant_types": ["refresh_token"], "response_types": [String]()], defaultRedirect: false)
            #expect(noCode.status == 201, "\(noCode.json)")
            #expect(noCode.json["redirect_uris"] == nil)
            #expect(noCode.json["scope"] as? String == "openid profile email phone offline_access")
        }
    }

    @Test func invalidRedirectURIsAndScopesAreRefusedAndRegisterNothing() async throws {
        try await withStartedServer { server, _, token in
            let before = try await server.rowCount("applications")
            let redirectRefusals: [[String: Any]] = [
                [:],
                ["redirect_uris": [String]()],
                ["redirect_uris": ["http://client.example.com/cb"]],
                ["redirect_uris": ["https://client.example.com/cb#fragment"]],
                ["redirect_uris": ["/callback"]],
                // A private-use scheme is for clients without a secret.
                ["redirect_uris": ["com.example.app:/cb"]],
                ["redirect_uris": ["javascript:alert(1)"], "token_endpoint_auth_method": "none"],
                ["redirect_uris": (0...20).map { "https://client.example.com/cb\($0)" }],
            ]
            for metadata in redirectRefusals {
                let answer = try await register(server, token: token, metadata, defaultRedirect: false)
                #expect(answer.status == 400, "\(metadata)")
                #expect(answer.json["error"] as? String == "invalid_redirect_uri", "\(metadata): \(answer.json)")
                #expect((answer.json["error_description"] as? String)?.contains("redirect") == true, "\(answer.json)")
            }
            let metadataRefusals: [[String: Any]] = [
                ["redirect_uris": "https://client.example.com/cb"],
                ["redirect_uris": [7]],
                ["post_logout_redirect_uris": ["http://client.example.com/out"]],
                ["post_logout_redirect_uris": "https://client.example.com/out"],
                ["scope": "openid address"],
                ["scope": "  "],
                ["scope": ["openid"]],
            ]
            for metadata in metadataRefusals {
                let answer = try await register(server, token: token, metadata)
                #expect(answer.status == 400, "\(metadata)")
                #expect(answer.json["error"] as? String == "invalid_client_metadata", "\(metadata): \(answer.json)")
            }
            #expect(try await server.rowCount("applications") == before)
            // Only the dev application's two loopback redirect URIs.
            #expect(try await server.rowCount("application_redirect_uris") == 2)
        }
    }

    @Test func discoveryAdvertisesRegistrationAndAuthMethods() async throws {
        try await withStartedServer { server, _, _ in
            let response = try await server.request("GET", "/.well-known/openid-configuration")
            let document = try JSONDecoder().decode(DiscoveryDocument.self, from: response.body)
            #expect(document.registrationEndpoint == "\(server.baseURL.absoluteString)/oauth2/register")
            #expect(Set(document.tokenEndpointAuthMethodsSupported) == [
                "none", "client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt",
            ])
            #expect(document.tokenEndpointAuthSigningAlgValuesSupported == ["HS256", "ES256", "RS256"])
        }
    }
}
