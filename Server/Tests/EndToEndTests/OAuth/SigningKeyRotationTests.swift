import Foundation
@testable import Keyway
import KeywayBackend
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Signing key rotation: published before it signs, the old key kept while its tokens live")
struct SigningKeyRotationTests {
    /// The `kid` in a JWT's header.
    static func kid(_ token: String) throws -> String {
        try #require(try CompactJWS(token).keyID)
    }

    static func signIn(_ keyway: KeywayClient, _ server: TestServer, email: String) async throws -> TokenSet {
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
    }

    /// The kids of the published keys of one algorithm.
    static func jwksKids(_ server: TestServer, algorithm: String = "ES256") async throws -> [String] {
        let response = try await server.request("GET", "/.well-known/jwks.json")
        let set = try JSONDecoder().decode(JSONWebKeySet.self, from: response.body)
        return set.keys.filter { $0.alg == algorithm }.compactMap(\.kid)
    }

    /// `kid=state` of the signing keys of one algorithm, as the admin API lists them.
    static func keyStates(_ server: TestServer, algorithm: String = "ES256") async throws -> [String] {
        let listed = try await server.admin("GET", "/admin/signing-keys")
        return ((listed.json["keys"] as? [[String: Any]]) ?? []).filter { $0["algorithm"] as? String == algorithm }
            .map { "\($0["kid"] ?? "")=\($0["state"] ?? "")" }
    }

    @Test func theWholeCycleWithTheSDKTheBackendKitAndAnIndependentVerifier() async throws {
        // Ten minutes in the past, so that tokens signed after the clock moved on are not in the
        // future for the independent verifier, which reads the real time.
        let clock = ManualClock(Date().addingTimeInterval(-700))
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            let confidential = try await server.app.register(
                ApplicationRegistration(name: "Backend", clientType: .confidential, autoCreateUsers: true))
            let backend = try KeywayBackend(
                configuration: .init(
                    issuer: server.baseURL, clientId: confidential.configId,
                    clientSecret: try #require(confidential.clientSecret),
                    acceptedClientIds: [confidential.configId, TestServer.configId]),
                clock: clock)
            // The dev application's ID tokens in ES256 too, so both tokens follow the ES256 key.
            let es256 = try await server.admin(
                "PATCH", "/admin/applications/\(TestServer.configId)", ["idTokenSignedResponseAlg": "ES256"])
            #expect(es256.status == 200, "\(es256.json)")

            let before = try await Self.signIn(keyway, server, email: "rotate@example.com")
            let first = try Self.kid(before.response.accessToken.revealed)
            #expect(try Self.kid(try #require(before.response.idToken).revealed) == first)
            _ = try await backend.verifyAccessToken(before.response.accessToken.revealed)
            #expect(try await Self.jwksKids(server) == [first])

            // Rotate: the next key is published at once, and signs nothing yet.
            let rotated = try await server.admin("POST", "/admin/signing-keys/rotate", ["prePublicationSeconds": 600])
            #expect(rotated.status == 201, "\(rotated.json)")
            let next = try #require(rotated.json["nextKid"] as? String)
            #expect(rotated.json["currentKid"] as? String == first)
            #expect(try await Self.jwksKids(server) == [first, next])
            let during = try await Self.signIn(keyway, server, email: "rotate@example.com")
            #expect(try Self.kid(during.response.accessToken.revealed) == first)
            // Asked again while it is under way: the same rotation.
            let again = try await server.admin("POST", "/admin/signing-keys/rotate", ["prePublicationSeconds": 5])
            #expect(again.status == 200 && again.json["nextKid"] as? String == next && again.json["created"] as? Bool == false)

            // Once the pre-publication time has passed, the next key signs; the SDK and the
            // backend kit fetch the key set again for the kid they do not know.
            clock.advance(by: 601)
            let after = try await Self.signIn(keyway, server, email: "rotate@example.com")
            #expect(try Self.kid(after.response.accessToken.revealed) == next)
            #expect(after.idToken.subject == before.idToken.subject)
            let fetches = await backend.keySetFetchCount
            _ = try await backend.verifyAccessToken(after.response.accessToken.revealed)
            #expect(await backend.keySetFetchCount == fetches + 1)
            // A token the old key signed is still good while it lives.
            _ = try await backend.verifyAccessToken(during.response.accessToken.revealed)
            let (status, text) = try await PythonScript.run(
                "verify_tokens.py", ["--issuer", server.baseURL.absoluteString, "--audience", TestServer.configId],
                input: try JSONSerialization.data(withJSONObject: [
                    "id_token": try #require(after.response.idToken).revealed,
                    "access_token": after.response.accessToken.revealed,
                ]))
            #expect(status == 0, "verify_tokens.py: \(text)")
            #expect(try await Self.keyStates(server) == ["\(first)=retired", "\(next)=active"])

            // When every token of the old key has expired, it is no longer published.
            clock.advance(by: 3600 + 300)
            #expect(try await Self.jwksKids(server) == [next])
            let later = try await Self.signIn(keyway, server, email: "rotate@example.com")
            #expect(try Self.kid(later.response.accessToken.revealed) == next)
        }
    }

    @Test func theRS256KeyRotatesOnItsOwnScheduleAndTheES256KeyStays() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let changed = try await server.admin(
                "PATCH", "/admin/applications/\(TestServer.configId)", ["idTokenSignedResponseAlg": "RS256"])
            #expect(changed.status == 200)
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            let before = try await Self.signIn(keyway, server, email: "rsa-rotate@example.com")
            let rsFirst = try Self.kid(try #require(before.response.idToken).revealed)
            let esKid = try Self.kid(before.response.accessToken.revealed)
            #expect(try await Self.jwksKids(server, algorithm: "RS256") == [rsFirst])
            #expect(try await Self.jwksKids(server) == [esKid])

            let rotated = try await server.admin(
                "POST", "/admin/signing-keys/rotate", ["algorithm": "RS256", "prePublicationSeconds": 600])
            #expect(rotated.status == 201 && rotated.json["algorithm"] as? String == "RS256", "\(rotated.json)")
            #expect(rotated.json["currentKid"] as? String == rsFirst)
            let rsNext = try #require(rotated.json["nextKid"] as? String)
            // Published before it signs; the ES256 key is untouched.
            #expect(try await Self.jwksKids(server, algorithm: "RS256") == [rsFirst, rsNext])
            #expect(try await Self.jwksKids(server) == [esKid])
            let during = try await Self.signIn(keyway, server, email: "rsa-rotate@example.com")
            #expect(try Self.kid(try #require(during.response.idToken).revealed) == rsFirst)

            clock.advance(by: 601)
            let after = try await Self.signIn(keyway, server, email: "rsa-rotate@example.com")
            #expect(try Self.kid(try #require(after.response.idToken).revealed) == rsNext)
            #expect(try Self.kid(after.response.accessToken.revealed) == esKid)
            #expect(try await Self.keyStates(server, algorithm: "RS256") == ["\(rsFirst)=retired", "\(rsNext)=active"])
            #expect(try await Self.keyStates(server) == ["\(esKid)=active"])
            // The old RSA key stays published while the ID tokens it signed live, then goes.
            #expect(try await Self.jwksKids(server, algorithm: "RS256") == [rsFirst, rsNext])
            clock.advance(by: 3600 + 300)
            #expect(try await Self.jwksKids(server, algorithm: "RS256") == [rsNext])
            #expect(try await Self.jwksKids(server) == [esKid])

            let unknown = try await server.admin("POST", "/admin/signing-keys/rotate", ["algorithm": "HS256"])
            #expect(unknown.status == 400 && "\(unknown.json)".contains("algorithm"))
        }
    }

    @Test func concurrentRotationsMakeOneSuccessorAndBadInputIsRefused() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let answers = try await withThrowingTaskGroup(of: (created: Bool, next: String).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let json = try await server.admin("POST", "/admin/signing-keys/rotate", [:]).json
                        return (json["created"] as? Bool ?? false, json["nextKid"] as? String ?? "")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter(\.created).count == 1)
            #expect(Set(answers.map(\.next)).count == 1 && answers.first?.next.isEmpty == false)
            #expect(try await Self.jwksKids(server).count == 2)
            let states = try await Self.keyStates(server).map { $0.split(separator: "=").last.map(String.init) ?? "" }
            #expect(states.sorted() == ["active", "next"])
            // The RS256 key was not touched.
            #expect(try await Self.keyStates(server, algorithm: "RS256").map { $0.hasSuffix("=active") } == [true])

            let refused = try await server.admin("POST", "/admin/signing-keys/rotate", ["prePublicationSeconds": -1])
            #expect(refused.status == 400)
            #expect("\(refused.json)".contains("prePublicationSeconds"))
            let anonymous = try await server.request(
                "GET", "/admin/signing-keys", headers: ["Authorization": "Bearer kad_wrong-token-0123456789abcdefghijklmnop"])
            #expect(anonymous.status == 401)
        }
    }
}
