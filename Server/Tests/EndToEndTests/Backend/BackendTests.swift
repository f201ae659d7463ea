import Crypto
import Foundation
@testable import Keyway
import KeywayBackend
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("KeywayBackend and the example backend against the real server")
struct BackendTests {
    /// The example backend running as a child process, and its port.
    struct ExampleBackend: ScopedTestServer {
        let process: CLIProcess
        let port: Int

        func stop() async { await process.stop() }
    }

    /// Starts the example backend for a confidential application and waits for its port.
    func startExampleBackend(_ server: TestServer, clientId: String, secret: String, accepted: [String]) async throws
        -> ExampleBackend
    {
        let process = try CLIProcess(
            arguments: [],
            environment: [
                "KEYWAY_ISSUER": server.baseURL.absoluteString, "KEYWAY_CLIENT_ID": clientId,
                "KEYWAY_CLIENT_SECRET": secret, "KEYWAY_ACCEPTED_CLIENTS": accepted.joined(separator: ","), "PORT": "0",
            ],
            executable: "keyway-example-backend")
        return try await process.settingUp { process in
            try await process.waitForOutput(containing: "listening on port ")
            let line = process.standardOutput.split(separator: "\n").first { $0.contains("listening on port ") } ?? ""
            guard let port = Int(line.split(separator: " ").last ?? "") else { throw TestFailure("No port in \(line)") }
            return ExampleBackend(process: process, port: port)
        }
    }

    func code(_ server: TestServer, clientId: String, email: String, clock: ManualClock, dpopKey: P256.Signing.PrivateKey? = nil)
        async throws -> (KeywayClient, String, String)
    {
        let keyway = try KeywayClient(
            configID: clientId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, dpopKey: dpopKey))
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return (keyway, completion.authCode.revealed, try #require(completion.codeVerifier).revealed)
    }

    func send(_ request: URLRequest) async throws -> (Int, [String: Any], String?) {
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (http.statusCode, json, http.value(forHTTPHeaderField: "WWW-Authenticate"))
    }

    @Test func theAppsCodeIsRedeemedByTheExampleBackendAndItsAPIAcceptsBearerAndDPoPTokens() async throws {
        // The real clock: the example backend runs in its own process with the system clock.
        let clock = ManualClock(Date())
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let confidential = try await server.app.register(
                ApplicationRegistration(name: "Shop backend", clientType: .confidential, autoCreateUsers: true))
            try await withTestServer(startExampleBackend(
                server, clientId: confidential.configId, secret: try #require(confidential.clientSecret).revealed,
                accepted: [TestServer.configId])) { backend in
                let port = backend.port
                let base = URL(string: "http://127.0.0.1:\(port)")!

                // The app completes a flow of the confidential application and hands the code over.
                let (_, authCode, verifier) = try await code(server, clientId: confidential.configId, email: "shop@example.com", clock: clock)
                var exchange = URLRequest(url: base.appendingPathComponent("session"))
                exchange.httpMethod = "POST"
                exchange.setValue("application/json", forHTTPHeaderField: "Content-Type")
                exchange.httpBody = try JSONSerialization.data(withJSONObject: ["authCode": authCode, "codeVerifier": verifier])
                let (status, session, _) = try await send(exchange)
                #expect(status == 200, "\(session)")
                #expect(session["email"] as? String == "shop@example.com")
                let userId = try #require(session["userId"] as? String)
                // The same code again is refused: the backend reports the server's answer.
                let (replayStatus, _, _) = try await send(exchange)
                #expect(replayStatus == 400)

                // The mobile app (the public dev application) calls the API with its DPoP-bound token.
                let key = P256.Signing.PrivateKey()
                let (app, appCode, appVerifier) = try await code(
                    server, clientId: TestServer.configId, email: "shop@example.com", clock: clock, dpopKey: key)
                let tokens = try await app.tokens.exchange(authCode: Sensitive(appCode), codeVerifier: Sensitive(appVerifier))
                // The example backend checks DPoP proofs against the system clock: on a busy machine
                // the test has run long enough for the manual clock to lag behind it.
                clock.advance(by: max(0, Date().timeIntervalSince(clock.now())))
                let me = URLRequest(url: base.appendingPathComponent("api/me"))
                let (meStatus, body, _) = try await send(try await app.authorizedRequest(me, accessToken: tokens.response.accessToken))
                #expect(meStatus == 200, "\(body)")
                #expect(body["userId"] as? String == userId)
                #expect(body["boundToKey"] as? Bool == true)
                #expect(body["signedInHere"] as? Bool == true)

                // Refusals: no token, the bound token as a bearer token, a replayed proof, a tampered token.
                let (none, _, noneChallenge) = try await send(me)
                #expect(none == 401)
                #expect(noneChallenge == #"Bearer realm="keyway""#)
                var asBearer = me
                asBearer.setValue("Bearer \(tokens.response.accessToken.revealed)", forHTTPHeaderField: "Authorization")
                #expect(try await send(asBearer).0 == 401)
                let signed = try await app.authorizedRequest(me, accessToken: tokens.response.accessToken)
                #expect(try await send(signed).0 == 200)
                let (replayed, replayBody, _) = try await send(signed)
                #expect(replayed == 401)
                #expect(replayBody["error"] as? String == "invalid_dpop_proof")
                var tampered = me
                tampered.setValue("Bearer \(tokens.response.accessToken.revealed.dropLast(4))AAAA", forHTTPHeaderField: "Authorization")
                #expect(try await send(tampered).0 == 401)

                // A bearer token of an application the backend does not accept is refused.
                let (_, otherCode, otherVerifier) = try await code(server, clientId: confidential.configId, email: "x@example.com", clock: clock)
                let direct = try KeywayBackend(
                    configuration: .init(
                        issuer: server.baseURL, clientId: confidential.configId,
                        clientSecret: try #require(confidential.clientSecret)))
                let backendTokens = try await direct.exchange(authCode: Sensitive(otherCode), codeVerifier: Sensitive(otherVerifier))
                var foreign = me
                foreign.setValue("Bearer \(backendTokens.response.accessToken.revealed)", forHTTPHeaderField: "Authorization")
                #expect(try await send(foreign).0 == 401)
            }
        }
    }

    @Test func theLibraryVerifiesRefreshesAndIntrospects() async throws {
        let clock = ManualClock(Date())
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let confidential = try await server.app.register(
                ApplicationRegistration(name: "Backend", clientType: .confidential, autoCreateUsers: true))
            let backend = try KeywayBackend(
                configuration: .init(
                    issuer: server.baseURL, clientId: confidential.configId,
                    clientSecret: try #require(confidential.clientSecret)),
                clock: clock)
            let (_, authCode, verifier) = try await code(server, clientId: confidential.configId, email: "lib@example.com", clock: clock)
            let tokens = try await backend.exchange(authCode: Sensitive(authCode), codeVerifier: Sensitive(verifier))
            #expect(tokens.idToken.email == "lib@example.com")
            let identity = try await backend.verifyAccessToken(tokens.response.accessToken.revealed)
            #expect(identity.userId == tokens.idToken.subject)
            #expect(identity.clientId == confidential.configId)
            #expect(identity.dpopKeyThumbprint == nil)
            #expect(await backend.keySetFetchCount == 1)

            let refreshed = try await backend.refresh(refreshToken: try #require(tokens.response.refreshToken))
            #expect(refreshed.idToken.subject == tokens.idToken.subject)
            #expect(try await backend.introspect(refreshed.response.accessToken).active)
            #expect(await backend.keySetFetchCount == 1, "the key set is cached")

            // Wrong secret: the server's answer comes through as an OAuth error.
            let wrong = try KeywayBackend(
                configuration: .init(issuer: server.baseURL, clientId: confidential.configId, clientSecret: Sensitive("kcs_wrong")))
            await #expect(throws: KeywayBackendError.self) { _ = try await wrong.refresh(refreshToken: Sensitive("krt_x")) }
            // Expired access tokens are refused.
            clock.advance(by: 16 * 60)
            await #expect(throws: KeywayBackendError.self) {
                _ = try await backend.verifyAccessToken(refreshed.response.accessToken.revealed)
            }
            #expect(throws: KeywayBackendError.self) {
                _ = try KeywayBackend(configuration: .init(issuer: URL(string: "ftp://x")!, clientId: "a", clientSecret: Sensitive("b")))
            }
        }
    }

    @Test func anUnknownKidMakesTheBackendFetchTheKeySetOnceMore() async throws {
        let clock = ManualClock(Date())
        let first = P256.Signing.PrivateKey()
        let second = P256.Signing.PrivateKey()
        func jwk(_ key: P256.Signing.PrivateKey, _ kid: String) -> JSONWebKey {
            var jwk = ECJWK.publicJWK(for: key.publicKey)
            jwk.kid = kid
            return jwk
        }
        try await withTestServer(JWKSServer(keys: JSONWebKeySet(keys: [jwk(first, "k1")])).start()) { issuerServer in
            let issuer = "http://127.0.0.1:\(issuerServer.port)"
            let backend = try KeywayBackend(
                configuration: .init(issuer: URL(string: issuer)!, clientId: "cfg_x", clientSecret: Sensitive("s")),
                clock: clock)
            func accessToken(_ key: P256.Signing.PrivateKey, kid: String) throws -> String {
                let now = clock.now().timeIntervalSince1970.rounded(.down)
                let claims: [String: JSONValue] = [
                    "iss": .string(issuer), "aud": .string(issuer), "sub": .string("usr_1"), "client_id": .string("cfg_app"),
                    "sid": .string("ses_1"), "jti": .string(UUID().uuidString), "scope": .string("openid"),
                    "iat": .number(now), "exp": .number(now + 900),
                ]
                return try JWSSigner.signES256(
                    payload: Data(JSONValue.object(claims).serialized().utf8),
                    header: ["typ": .string("at+jwt"), "kid": .string(kid)], key: key)
            }

            #expect(try await backend.verifyAccessToken(try accessToken(first, kid: "k1")).userId == "usr_1")
            #expect(await backend.keySetFetchCount == 1)
            // The server rotates its key: the first token with the new kid refetches once.
            issuerServer.publish(JSONWebKeySet(keys: [jwk(second, "k2"), jwk(first, "k1")]))
            clock.advance(by: 31)
            #expect(try await backend.verifyAccessToken(try accessToken(second, kid: "k2")).userId == "usr_1")
            #expect(await backend.keySetFetchCount == 2)
            // Made-up kids do not cause more fetches within the minimum interval.
            for kid in ["k3", "k4", "k5"] {
                await #expect(throws: KeywayBackendError.self) {
                    _ = try await backend.verifyAccessToken(try accessToken(second, kid: kid))
                }
            }
            #expect(await backend.keySetFetchCount == 2)
            // A token signed by a key that is not the one its kid names is refused.
            await #expect(throws: KeywayBackendError.self) {
                _ = try await backend.verifyAccessToken(try accessToken(first, kid: "k2"))
            }
        }
    }

    @Test func theBackendPathEndsInTheSameSessionAndRefreshesThroughTheBackend() async throws {
        let clock = ManualClock(Date())
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let confidential = try await server.app.register(
                ApplicationRegistration(name: "Shop", clientType: .confidential, autoCreateUsers: true))
            try await withTestServer(startExampleBackend(
                server, clientId: confidential.configId, secret: try #require(confidential.clientSecret).revealed, accepted: [])) { backend in
                let port = backend.port
                let base = URL(string: "http://127.0.0.1:\(port)")!

                let (keyway, authCode, verifier) = try await code(server, clientId: confidential.configId, email: "path@example.com", clock: clock)
                var exchange = URLRequest(url: base.appendingPathComponent("session"))
                exchange.httpMethod = "POST"
                exchange.setValue("application/json", forHTTPHeaderField: "Content-Type")
                exchange.httpBody = try JSONSerialization.data(withJSONObject: ["authCode": authCode, "codeVerifier": verifier])
                let (data, _) = try await URLSession.shared.data(for: exchange)
                struct Answer: Decodable { var userId: String; var tokens: TokenResponse }
                let answer = try JSONDecoder().decode(Answer.self, from: data)

                // The app's session refreshes through the backend, which holds the client secret.
                let refresher: KeywaySession.Refresher = { refreshToken in
                    var request = URLRequest(url: base.appendingPathComponent("refresh"))
                    request.httpMethod = "POST"
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                    request.httpBody = try JSONSerialization.data(withJSONObject: ["refreshToken": refreshToken.revealed])
                    let (body, response) = try await URLSession.shared.data(for: request)
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    if status != 200, let error = try? JSONDecoder().decode(OAuthErrorResponse.self, from: body) {
                        throw KeywayError.oauth(status: status, error: error)
                    }
                    return try JSONDecoder().decode(TokenResponse.self, from: body)
                }
                let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage(), refresher: refresher)
                try await session.save(answer.tokens)
                #expect(session.state.snapshot.user.id == answer.userId)
                let events = Collector(keyway.events)
                let refreshed = try await session.refresh()
                #expect(refreshed.idToken.subject == answer.userId)
                #expect(refreshed.response.accessToken != answer.tokens.accessToken)
                #expect(await events.wait(for: 1).map(\.name) == [.tokenRefreshed])

                // The user signs out everywhere: the next refresh through the backend signs the app out.
                try await keyway.tokenClient.signOutEverywhere(accessToken: refreshed.response.accessToken)
                await #expect(throws: SessionError.self) { try await session.refresh() }
                #expect(!session.state.snapshot.auth.isAuthenticated)
                #expect(await events.wait(for: 2).map(\.name) == [.tokenRefreshed, .sessionExpired])
                events.cancel()

                // Token responses that do not verify are refused before anything is saved.
                var forged = answer.tokens
                forged.idToken = Sensitive(String(answer.tokens.idToken!.revealed.dropLast(3)) + "AAA")
                await #expect(throws: KeywayError.self) { try await session.save(forged) }
                #expect(try await session.accounts().isEmpty)
            }
        }
    }
}

