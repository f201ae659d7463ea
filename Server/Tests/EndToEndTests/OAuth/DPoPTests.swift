import Crypto
import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("DPoP: sender-constrained tokens (RFC 9449)")
struct DPoPTests {
    func signIn(
        _ server: TestServer, clock: ManualClock, email: String, configId: String = TestServer.configId,
        dpopKey: P256.Signing.PrivateKey?
    ) async throws -> (KeywayClient, TokenSet) {
        let keyway = try KeywayClient(
            configID: configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, dpopKey: dpopKey))
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return (keyway, try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!))
    }

    func claims(of jwt: String) throws -> [String: JSONValue] {
        let jws = try CompactJWS(jwt)
        guard case .object(let claims) = try JSONDecoder().decode(JSONValue.self, from: jws.payload) else { return [:] }
        return claims
    }

    func tokenURL(_ server: TestServer) -> URL { server.baseURL.appendingPathComponent("oauth2/token") }

    func proof(
        _ server: TestServer, key: P256.Signing.PrivateKey, clock: ManualClock, method: String = "POST",
        url: URL? = nil, nonce: String? = nil, accessToken: String? = nil, jti: String = UUID().uuidString,
        age: TimeInterval = 0
    ) throws -> String {
        try DPoP.proof(
            key: key, method: method, url: url ?? tokenURL(server), issuedAt: clock.now().addingTimeInterval(-age),
            nonce: nonce, accessToken: accessToken, jti: jti)
    }

    func refreshForm(_ token: String) -> [String: String] {
        ["grant_type": "refresh_token", "refresh_token": token, "client_id": TestServer.configId]
    }

    @Test func boundTokensWorkOnlyWithTheirKey() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let key = P256.Signing.PrivateKey()
            let (keyway, tokens) = try await signIn(server, clock: clock, email: "dpop@example.com", dpopKey: key)
            #expect(tokens.response.tokenType == "DPoP")
            let cnf = try claims(of: tokens.response.accessToken.revealed)["cnf"]
            #expect(cnf == .object(["jkt": .string(DPoP.thumbprint(of: key.publicKey))]))
            // Introspection names the token's type as RFC 6749 §5.1 does, with its key.
            let backend = try await server.app.register(ApplicationRegistration(name: "Backend", clientType: .confidential, backendRoles: [.introspection]))
            let basic = "Basic " + Data("\(backend.configId):\(try #require(backend.clientSecret).revealed)".utf8)
                .base64EncodedString()
            let introspected = try await server.form(
                "/oauth2/introspect", ["token": tokens.response.accessToken.revealed], headers: ["Authorization": basic])
            #expect(introspected.json["token_type"] as? String == "DPoP")
            #expect((introspected.json["cnf"] as? [String: Any])?["jkt"] as? String == DPoP.thumbprint(of: key.publicKey))

            // The SDK presents it with the DPoP scheme and a proof; as a bearer token it is refused.
            #expect(try await keyway.tokenClient.userInfo(accessToken: tokens.response.accessToken).email == "dpop@example.com")
            let asBearer = try await server.request(
                "GET", "/oauth2/userinfo", headers: ["Authorization": "Bearer \(tokens.response.accessToken.revealed)"])
            #expect(asBearer.status == 401)
            #expect(asBearer.headers["www-authenticate"]?.hasPrefix("DPoP ") == true)

            // A proof without the token's hash, or from another key, or replayed, is refused.
            let userInfoURL = server.baseURL.appendingPathComponent("oauth2/userinfo")
            let noAth = try proof(server, key: key, clock: clock, method: "GET", url: userInfoURL)
            let other = try proof(
                server, key: P256.Signing.PrivateKey(), clock: clock, method: "GET", url: userInfoURL,
                accessToken: tokens.response.accessToken.revealed)
            let good = try proof(
                server, key: key, clock: clock, method: "GET", url: userInfoURL, accessToken: tokens.response.accessToken.revealed)
            let authorization = "DPoP \(tokens.response.accessToken.revealed)"
            for bad in [noAth, other] {
                let refused = try await server.request("GET", "/oauth2/userinfo", headers: ["Authorization": authorization, "DPoP": bad])
                #expect(refused.status == 401)
                #expect(refused.headers["www-authenticate"]?.contains(#"error="invalid_dpop_proof""#) == true)
            }
            #expect(try await server.request("GET", "/oauth2/userinfo", headers: ["Authorization": authorization, "DPoP": good]).status == 200)
            #expect(try await server.request("GET", "/oauth2/userinfo", headers: ["Authorization": authorization, "DPoP": good]).status == 401)

            // The refresh token is bound too: the SDK refreshes with its key, nobody else can.
            let refreshToken = try #require(tokens.response.refreshToken)
            let withoutProof = try await server.token(refreshForm(refreshToken.revealed))
            #expect(withoutProof.json["error"] as? String == "invalid_dpop_proof")
            let otherKey = try await server.token(
                refreshForm(refreshToken.revealed), headers: ["DPoP": try proof(server, key: P256.Signing.PrivateKey(), clock: clock)])
            #expect(otherKey.json["error"] as? String == "invalid_dpop_proof")
            let refreshed = try await keyway.tokens.refresh(refreshToken: refreshToken)
            #expect(refreshed.response.tokenType == "DPoP")
            #expect(try await keyway.tokenClient.userInfo(accessToken: refreshed.response.accessToken).subject == tokens.idToken.subject)
        }
    }

    @Test func tokenEndpointProofsAreChecked() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            // An unbound family: each refused proof must leave its refresh token unspent.
            let (_, tokens) = try await signIn(server, clock: clock, email: "proofs@example.com", dpopKey: nil)
            let refreshToken = try #require(tokens.response.refreshToken).revealed
            let key = P256.Signing.PrivateKey()

            var wrongType = try proof(server, key: key, clock: clock)
            do {
                let raw = key.publicKey.rawRepresentation
                let jwk: JSONValue = .object([
                    "kty": .string("EC"), "crv": .string("P-256"), "x": .string(Base64URL.encode(raw.prefix(32))),
                    "y": .string(Base64URL.encode(raw.suffix(32))),
                ])
                let payload = JSONValue.object([
                    "jti": .string("x1"), "htm": .string("POST"), "htu": .string(tokenURL(server).absoluteString),
                    "iat": .number(clock.now().timeIntervalSince1970.rounded(.down)),
                ])
                wrongType = try JWSSigner.signES256(
                    payload: Data(payload.serialized().utf8), header: ["typ": .string("JWT"), "jwk": jwk], key: key)
            }
            var tampered = try proof(server, key: key, clock: clock).split(separator: ".").map(String.init)
            tampered[1] = Base64URL.encode(Array(#"{"jti":"t","htm":"POST","htu":"x","iat":1}"#.utf8))
            let cases: [(String, String)] = [
                ("wrong htm", try proof(server, key: key, clock: clock, method: "GET")),
                ("wrong htu", try proof(server, key: key, clock: clock, url: server.baseURL.appendingPathComponent("oauth2/revoke"))),
                ("stale iat", try proof(server, key: key, clock: clock, age: 120)),
                ("future iat", try proof(server, key: key, clock: clock, age: -120)),
                ("wrong typ", wrongType),
                ("bad signature", tampered.joined(separator: ".")),
                ("not a JWS", "nonsense"),
            ]
            for (name, bad) in cases {
                let refused = try await server.token(refreshForm(refreshToken), headers: ["DPoP": bad])
                #expect(refused.status == 400, "\(name)")
                #expect(refused.json["error"] as? String == "invalid_dpop_proof", "\(name)")
            }

            // A good proof binds the new access token; the same proof again is a replay.
            let good = try proof(server, key: key, clock: clock, jti: "once")
            let accepted = try await server.token(refreshForm(refreshToken), headers: ["DPoP": good])
            #expect(accepted.status == 200)
            #expect(accepted.json["token_type"] as? String == "DPoP")
            let next = try #require(accepted.json["refresh_token"] as? String)
            let replayed = try await server.token(refreshForm(next), headers: ["DPoP": good])
            #expect(replayed.json["error"] as? String == "invalid_dpop_proof")
            #expect(replayed.json["error_description"] as? String == "The DPoP proof was already used.")
        }
    }

    @Test func requiredModeAndServerNonces() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let app = try await server.app.register(
                ApplicationRegistration(
                    name: "Strict", clientType: .public, autoCreateUsers: true,
                    dpop: DPoPPolicy(mode: .required, requireNonce: true)))

            // Without a key the code cannot be redeemed.
            await #expect {
                _ = try await signIn(server, clock: clock, email: "strict@example.com", configId: app.configId, dpopKey: nil)
            } throws: { error in
                guard case KeywayError.oauth(_, let body) = error else { return false }
                return body.error == "invalid_dpop_proof"
            }

            // With a key the SDK fetches the nonce the server asks for and retries by itself.
            let key = P256.Signing.PrivateKey()
            let (keyway, tokens) = try await signIn(
                server, clock: clock, email: "strict2@example.com", configId: app.configId, dpopKey: key)
            #expect(tokens.response.tokenType == "DPoP")
            _ = try await keyway.tokens.refresh(refreshToken: tokens.response.refreshToken!)

            // A proof without a nonce gets use_dpop_nonce and a DPoP-Nonce header, as RFC 9449 §8 words it.
            let form = ["grant_type": "refresh_token", "refresh_token": "krt_x", "client_id": app.configId]
            var body = form.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            let response = try await server.request(
                "POST", "/oauth2/token",
                headers: ["Content-Type": "application/x-www-form-urlencoded", "DPoP": try proof(server, key: key, clock: clock)],
                body: Data(body.utf8))
            #expect(response.status == 400)
            let json = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            #expect(json?["error"] as? String == "use_dpop_nonce")
            #expect(json?["error_description"] as? String == "Authorization server requires nonce in DPoP proof")
            let nonce = try #require(response.headers["dpop-nonce"])
            // A forged nonce is refused the same way; the server's own one is accepted.
            body += ""
            let forged = try await server.token(form, headers: ["DPoP": try proof(server, key: key, clock: clock, nonce: "forged")])
            #expect(forged.json["error"] as? String == "use_dpop_nonce")
            let withNonce = try await server.token(form, headers: ["DPoP": try proof(server, key: key, clock: clock, nonce: nonce)])
            #expect(withNonce.json["error"] as? String == "invalid_grant")
            // Nonces expire after five minutes.
            clock.advance(by: 301)
            let stale = try await server.token(form, headers: ["DPoP": try proof(server, key: key, clock: clock, nonce: nonce)])
            #expect(stale.json["error"] as? String == "use_dpop_nonce")
        }
    }

    @Test func offModeIgnoresProofs() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let app = try await server.app.register(
                ApplicationRegistration(name: "Plain", clientType: .public, autoCreateUsers: true, dpop: DPoPPolicy(mode: .off)))
            let (_, tokens) = try await signIn(
                server, clock: clock, email: "plain@example.com", configId: app.configId, dpopKey: P256.Signing.PrivateKey())
            #expect(tokens.response.tokenType == "Bearer")
            #expect(try claims(of: tokens.response.accessToken.revealed)["cnf"] == nil)
        }
    }

    @Test func authorizedRequestSignsTheAppsOwnRequests() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let key = P256.Signing.PrivateKey()
            let (keyway, tokens) = try await signIn(server, clock: clock, email: "own-api@example.com", dpopKey: key)
            let url = server.baseURL.appendingPathComponent("oauth2/userinfo")
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            let authorized = try await keyway.authorizedRequest(request, accessToken: tokens.response.accessToken)
            let authorization = try #require(authorized.value(forHTTPHeaderField: "Authorization"))
            let proofHeader = try #require(authorized.value(forHTTPHeaderField: "DPoP"))
            #expect(authorization == "DPoP \(tokens.response.accessToken.revealed)")
            let proofClaims = try claims(of: proofHeader)
            #expect(proofClaims["htm"] == .string("POST"))
            #expect(proofClaims["htu"] == .string(url.absoluteString))
            #expect(proofClaims["ath"] != nil)
            // The resource server accepts the request as built.
            let answer = try await server.request(
                "POST", "/oauth2/userinfo", headers: ["Authorization": authorization, "DPoP": proofHeader])
            #expect(answer.status == 200)
            // A resource server's nonce goes into the proof.
            let withNonce = try await keyway.authorizedRequest(request, accessToken: tokens.response.accessToken, dpopNonce: "n-1")
            #expect(try claims(of: try #require(withNonce.value(forHTTPHeaderField: "DPoP")))["nonce"] == .string("n-1"))

            // A bearer token gets the Bearer scheme and no proof; a bound token without the key is refused.
            let (plain, bearerTokens) = try await signIn(server, clock: clock, email: "bearer-api@example.com", dpopKey: nil)
            let bearer = try await plain.authorizedRequest(request, accessToken: bearerTokens.response.accessToken)
            #expect(bearer.value(forHTTPHeaderField: "Authorization") == "Bearer \(bearerTokens.response.accessToken.revealed)")
            #expect(bearer.value(forHTTPHeaderField: "DPoP") == nil)
            await #expect(throws: KeywayError.self) {
                _ = try await plain.authorizedRequest(request, accessToken: tokens.response.accessToken)
            }
            await #expect(throws: KeywayError.self) {
                _ = try await keyway.authorizedRequest(request, accessToken: Sensitive("not a token"))
            }
        }
    }

    @Test func theDeviceKeyStoreKeepsTheDPoPKeyAcrossLaunches() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let directory = TestFiles.directory.appendingPathComponent("keyway-keys-\(UUID().uuidString)")
            func store() throws -> SoftwareDeviceKeyStore {
                SoftwareDeviceKeyStore(
                    storage: try FileSecureStorage(
                        directory: directory, namespace: "device-keys", keySource: .keyFile(directory.appendingPathComponent("k"))))
            }
            let name = SoftwareDeviceKeyStore.dpopKeyName(appIdentifier: "com.example.shop", configID: TestServer.configId)
            #expect(name != SoftwareDeviceKeyStore.dpopKeyName(appIdentifier: "com.example.other", configID: TestServer.configId))
            #expect(name != SoftwareDeviceKeyStore.dpopKeyName(appIdentifier: "com.example.shop", configID: "cfg_other"))

            let firstLaunchKey = try await store().existingOrNewKey(named: name)
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, dpopKey: firstLaunchKey))
            await keyway.flow.start(identifier: "device-key@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "device-key@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            #expect(try claims(of: tokens.response.accessToken.revealed)["cnf"] == .object(["jkt": .string(DPoP.thumbprint(of: firstLaunchKey.publicKey))]))

            // The next launch finds the same key, so the bound refresh token still works.
            let secondLaunchKey = try #require(try await store().key(named: name))
            #expect(secondLaunchKey.publicKey.rawRepresentation == firstLaunchKey.publicKey.rawRepresentation)
            let relaunched = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, dpopKey: secondLaunchKey))
            let refreshed = try await relaunched.tokens.refresh(refreshToken: try #require(tokens.response.refreshToken))

            // A new key (the old one deleted) cannot use the bound family.
            try await store().deleteKey(named: name)
            #expect(try await store().key(named: name) == nil)
            let fresh = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL,
                options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, dpopKey: try await store().existingOrNewKey(named: name)))
            await #expect(throws: KeywayError.self) {
                _ = try await fresh.tokens.refresh(refreshToken: try #require(refreshed.response.refreshToken))
            }
        }
    }

    @Test func discoveryAdvertisesDPoP() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let document = try JSONDecoder().decode(
                DiscoveryDocument.self, from: try await server.request("GET", "/.well-known/openid-configuration").body)
            #expect(document.dpopSigningAlgValuesSupported == ["ES256"])
        }
    }
}
