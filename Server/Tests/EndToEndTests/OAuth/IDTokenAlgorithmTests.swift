import Foundation
@testable import Keyway
import KeywayBackend
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("ID tokens in RS256 or ES256, as each application chose")
struct IDTokenAlgorithmTests {
    /// Signs `email` in as `clientId` with the SDK, which verifies the ID token from the JWKS.
    static func signIn(_ server: TestServer, clock: ManualClock, clientId: String, email: String) async throws -> TokenSet {
        let keyway = try KeywayClient(configID: clientId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
    }

    /// The header of a compact JWS.
    static func header(_ token: String) throws -> (alg: String?, kid: String?) {
        let jws = try CompactJWS(token)
        return (jws.algorithm, jws.keyID)
    }

    static func register(_ server: TestServer, token: String, _ metadata: [String: Any]) async throws
        -> (status: Int, json: [String: Any])
    {
        var metadata = metadata
        metadata["redirect_uris"] = metadata["redirect_uris"] ?? ["https://client.example.com/callback"]
        let response = try await server.request(
            "POST", "/oauth2/register", headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
            body: try JSONSerialization.data(withJSONObject: metadata))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// Verifies the tokens with Python's joserfc from the served JWKS.
    static func verifyIndependently(_ server: TestServer, _ tokens: TokenSet, clientId: String, algorithm: String)
        async throws
    {
        let (status, text) = try await PythonScript.run(
            "verify_tokens.py",
            ["--issuer", server.baseURL.absoluteString, "--audience", clientId, "--id-token-alg", algorithm],
            input: try JSONSerialization.data(withJSONObject: [
                "id_token": try #require(tokens.response.idToken).revealed,
                "access_token": tokens.response.accessToken.revealed,
            ]))
        #expect(status == 0, "verify_tokens.py: \(text)")
        #expect(text.contains("verified \(algorithm) id_token sub=\(tokens.idToken.subject)"))
    }

    @Test func registeredClientsGetRS256UnlessTheyAskForES256() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let token = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId).revealed
            let rs = try await Self.register(server, token: token, ["token_endpoint_auth_method": "none"])
            #expect(rs.status == 201 && rs.json["id_token_signed_response_alg"] as? String == "RS256", "\(rs.json)")
            let es = try await Self.register(
                server, token: token, ["token_endpoint_auth_method": "none", "id_token_signed_response_alg": "ES256"])
            #expect(es.status == 201 && es.json["id_token_signed_response_alg"] as? String == "ES256", "\(es.json)")
            for refused: Any in ["HS256", "none", "PS256", 256] {
                let answer = try await Self.register(
                    server, token: token, ["token_endpoint_auth_method": "none", "id_token_signed_response_alg": refused])
                #expect(answer.status == 400 && answer.json["error"] as? String == "invalid_client_metadata", "\(refused)")
            }

            // The RS256 client: its ID token is RS256, under the JWKS's RSA key; its access token
            // stays ES256. The SDK, the backend kit and joserfc all verify it.
            let rsClient = try #require(rs.json["client_id"] as? String)
            let rsTokens = try await Self.signIn(server, clock: clock, clientId: rsClient, email: "rsa@example.com")
            let idHeader = try Self.header(try #require(rsTokens.response.idToken).revealed)
            #expect(idHeader.alg == "RS256")
            #expect(try Self.header(rsTokens.response.accessToken.revealed).alg == "ES256")
            let jwks = try JSONDecoder().decode(
                JSONWebKeySet.self, from: try await server.request("GET", "/.well-known/jwks.json").body)
            #expect(jwks.keys.first { $0.kid == idHeader.kid }?.kty == "RSA")
            #expect(Set(jwks.keys.map(\.kty)) == ["EC", "RSA"])
            try await Self.verifyIndependently(server, rsTokens, clientId: rsClient, algorithm: "RS256")
            let backend = try KeywayBackend(
                configuration: .init(
                    issuer: server.baseURL, clientId: rsClient, clientSecret: Sensitive("unused"),
                    acceptedClientIds: [rsClient]),
                clock: clock)
            let verified = try await backend.verifyIDToken(
                try #require(rsTokens.response.idToken).revealed, accessToken: rsTokens.response.accessToken.revealed)
            #expect(verified.subject == rsTokens.idToken.subject)

            // The client that asked for ES256 gets ES256; the dev application, made by dev
            // provisioning, RS256 as every new application (OpenID Connect's default).
            let esClient = try #require(es.json["client_id"] as? String)
            let esTokens = try await Self.signIn(server, clock: clock, clientId: esClient, email: "ec@example.com")
            #expect(try Self.header(try #require(esTokens.response.idToken).revealed).alg == "ES256")
            try await Self.verifyIndependently(server, esTokens, clientId: esClient, algorithm: "ES256")
            let dev = try await Self.signIn(server, clock: clock, clientId: TestServer.configId, email: "dev@example.com")
            #expect(try Self.header(try #require(dev.response.idToken).revealed).alg == "RS256")
        }
    }

    @Test func anAdministratorChoosesTheAlgorithmOfAnApplication() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let path = "/admin/applications/\(TestServer.configId)"
            let shown = try await server.admin("GET", path)
            #expect(shown.status == 200 && shown.json["idTokenSignedResponseAlg"] as? String == "RS256", "\(shown.json)")
            #expect(shown.json["corsOrigins"] as? [String] == [])

            let changed = try await server.admin("PATCH", path, ["idTokenSignedResponseAlg": "ES256"])
            #expect(changed.status == 200 && changed.json["idTokenSignedResponseAlg"] as? String == "ES256", "\(changed.json)")
            let tokens = try await Self.signIn(server, clock: clock, clientId: TestServer.configId, email: "admin-es@example.com")
            #expect(try Self.header(try #require(tokens.response.idToken).revealed).alg == "ES256")
            try await Self.verifyIndependently(server, tokens, clientId: TestServer.configId, algorithm: "ES256")
            let listed = try await server.admin("GET", "/admin/applications")
            let applications = (listed.json["applications"] as? [[String: Any]]) ?? []
            #expect(applications.first { $0["configId"] as? String == TestServer.configId }?["idTokenSignedResponseAlg"] as? String == "ES256")

            let refused = try await server.admin("PATCH", path, ["idTokenSignedResponseAlg": "HS256"])
            #expect(refused.status == 400 && "\(refused.json)".contains("idTokenSignedResponseAlg"))
            #expect(try await server.admin("GET", path).json["idTokenSignedResponseAlg"] as? String == "ES256")
            let unknown = try await server.admin("PATCH", "/admin/applications/cfg_nobody", ["idTokenSignedResponseAlg": "RS256"])
            #expect(unknown.status == 404)
            let back = try await server.admin("PATCH", path, ["idTokenSignedResponseAlg": "RS256"])
            #expect(back.json["idTokenSignedResponseAlg"] as? String == "RS256")
            let again = try await Self.signIn(server, clock: clock, clientId: TestServer.configId, email: "admin-es@example.com")
            #expect(try Self.header(try #require(again.response.idToken).revealed).alg == "RS256")
        }
    }
}
