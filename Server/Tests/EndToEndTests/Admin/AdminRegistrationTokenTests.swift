import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// Initial access tokens for dynamic client registration through the admin API: issued once,
/// listed without the token, revoked.
@Suite("Admin API: registration tokens for dynamic client registration")
struct AdminRegistrationTokenTests {
    /// Registers a public client with `token`; answers the status and the JSON document.
    static func register(_ server: TestServer, token: String) async throws -> (status: Int, json: [String: Any]) {
        let response = try await server.request(
            "POST", "/oauth2/register", headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"],
            body: try JSONSerialization.data(
                withJSONObject: ["token_endpoint_auth_method": "none", "redirect_uris": ["https://client.example.com/cb"]]))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    @Test func issuesListsAndRevokesTokens() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let path = "/admin/applications/\(TestServer.configId)/registration-tokens"
            #expect(try await server.admin("GET", path).json["registrationTokens"] as? [Any] != nil)

            // Without a body: a token that does not expire.
            let forever = try await server.admin("POST", path)
            #expect(forever.status == 201, "\(forever.json)")
            let foreverToken = try #require(forever.json["token"] as? String)
            let foreverId = try #require(forever.json["id"] as? String)
            #expect(foreverToken.hasPrefix("kit_") && foreverId.hasPrefix("rit_"))
            #expect(forever.json["templateConfigId"] as? String == TestServer.configId)
            #expect(forever.json["expiresAt"] == nil)
            clock.advance(by: 1)  // Listed oldest first.
            let daily = try await server.admin("POST", path, ["expiresInSeconds": 86_400])
            #expect(daily.status == 201)
            let dailyToken = try #require(daily.json["token"] as? String)
            let dailyId = try #require(daily.json["id"] as? String)
            #expect(daily.json["expiresAt"] as? String != nil)

            #expect(try await Self.register(server, token: foreverToken).status == 201)
            #expect(try await Self.register(server, token: foreverToken).status == 201)
            #expect(try await Self.register(server, token: dailyToken).status == 201)

            // The list never shows a token, only its ID, template, expiry and use.
            let listed = try await server.admin("GET", path)
            #expect(listed.status == 200)
            let tokens = try #require(listed.json["registrationTokens"] as? [[String: Any]])
            #expect(tokens.map { $0["id"] as? String } == [foreverId, dailyId])
            let text = String(decoding: try JSONSerialization.data(withJSONObject: listed.json), as: UTF8.self)
            #expect(!text.contains(foreverToken) && !text.contains(dailyToken))
            #expect(tokens.allSatisfy { $0["token"] == nil && $0["templateConfigId"] as? String == TestServer.configId })
            #expect(tokens[0]["registeredClients"] as? Int == 2 && tokens[1]["registeredClients"] as? Int == 1)
            #expect(tokens[0]["lastUsedAt"] as? String != nil)
            #expect(tokens[0]["expired"] as? Bool == false && tokens[0]["expiresAt"] == nil)

            // Expired tokens stay listed, marked so.
            clock.advance(by: 86_401)
            #expect(try await Self.register(server, token: dailyToken).status == 401)
            let later = try #require(try await server.admin("GET", path).json["registrationTokens"] as? [[String: Any]])
            #expect(later.map { $0["expired"] as? Bool } == [false, true])

            // A revoked token registers no more clients; its clients stay.
            let revoked = try await server.admin("DELETE", "\(path)/\(foreverId)")
            #expect(revoked.status == 204)
            #expect(try await Self.register(server, token: foreverToken).status == 401)
            #expect((try await server.admin("GET", path).json["registrationTokens"] as? [[String: Any]])?.count == 1)
            let again = try await server.admin("DELETE", "\(path)/\(foreverId)")
            #expect(again.status == 404 && again.json["code"] as? String == "not_found")

            // Tokens are revoked through their own template only.
            let other = try #require(
                try await server.admin("POST", "/admin/applications", ["name": "Other"]).json["configId"] as? String)
            let misplaced = try await server.admin("DELETE", "/admin/applications/\(other)/registration-tokens/\(dailyId)")
            #expect(misplaced.status == 404)

            for refused in [0, -5, 366 * 86_400 + 1] {
                let answer = try await server.admin("POST", path, ["expiresInSeconds": refused])
                #expect(answer.status == 400, "\(refused)")
                #expect((answer.json["invalidFields"] as? [[String: Any]])?.first?["name"] as? String == "expiresInSeconds")
            }
            #expect(try await server.admin("POST", "/admin/applications/cfg_nope/registration-tokens").status == 404)
            #expect(try await server.admin("GET", "/admin/applications/cfg_nope/registration-tokens").status == 404)
            let unauthorized = try await server.request("POST", path)
            #expect(unauthorized.status == 401)
            #expect(!server.logs.all.joined(separator: "\n").contains(dailyToken))
        }
    }
}
