import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// `/admin/projects/{projectId}/identity-providers`, over real HTTP.
@Suite("Admin API: a project's upstream identity providers")
struct AdminIdentityProviderTests {
    @Test func addsListsChangesAndRemovesProvidersWithoutEverShowingTheSecret() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let created = try await server.admin("POST", "/admin/applications", ["name": "Acme Notes"])
            let projectId = try #require(created.json["projectId"] as? String)
            let base = "/admin/projects/\(projectId)/identity-providers"

            let added = try await server.admin(
                "POST", base,
                ["id": "google", "preset": "google", "issuer": "https://accounts.google.com", "clientId": "client-1",
                 "clientSecret": "s3cret-value", "label": "Continue with Google",
                 "iconURL": "https://cdn.acme.example/google.svg"])
            #expect(added.status == 201, "\(added.json)")
            #expect(added.json["id"] as? String == "google")
            #expect(added.json["methodId"] as? String == "federation:google")
            #expect(added.json["hasClientSecret"] as? Bool == true)
            #expect(added.json["scopes"] as? [String] == ["openid", "email", "profile"])
            #expect((added.json["claims"] as? [String: Any])?["emailVerified"] as? String == "email_verified")
            #expect(!"\(added.json)".contains("s3cret-value"))

            let duplicate = try await server.admin(
                "POST", base,
                ["id": "google", "issuer": "https://accounts.google.com", "clientId": "c", "clientSecret": "x",
                 "label": "Again"])
            #expect(duplicate.status == 409 && duplicate.json["code"] as? String == "already_exists", "\(duplicate.json)")

            let list = try await server.admin("GET", base)
            #expect(list.status == 200)
            #expect((list.json["providers"] as? [[String: Any]])?.map { $0["id"] as? String } == ["google"])
            #expect(!"\(list.json)".contains("s3cret-value"))

            let changed = try await server.admin(
                "PATCH", "\(base)/google", ["label": "Sign in with Google", "iconURL": "", "scopes": ["openid", "email"]])
            #expect(changed.status == 200, "\(changed.json)")
            #expect(changed.json["label"] as? String == "Sign in with Google")
            #expect(changed.json["iconURL"] == nil)
            #expect(changed.json["scopes"] as? [String] == ["openid", "email"])
            #expect(changed.json["clientId"] as? String == "client-1")
            let read = try await server.admin("GET", "\(base)/google")
            #expect(NSDictionary(dictionary: read.json) == NSDictionary(dictionary: changed.json))

            let refusals: [(body: [String: Any], field: String)] = [
                (["id": "G", "issuer": "https://a.example", "clientId": "c", "clientSecret": "s", "label": "L"], "id"),
                (["id": "x", "issuer": "https://a.example", "clientId": "c", "clientSecret": "s", "label": "L"], "id"),
                (["id": "acme", "issuer": "http://a.example", "clientId": "c", "clientSecret": "s", "label": "L"], "issuer"),
                (["id": "acme", "issuer": "https://a.example?x=1", "clientId": "c", "clientSecret": "s", "label": "L"], "issuer"),
                (["id": "acme", "preset": "facebook", "issuer": "https://a.example", "clientId": "c", "clientSecret": "s",
                  "label": "L"], "preset"),
                (["id": "acme", "issuer": "https://a.example", "clientId": "c", "label": "L"], "clientSecret"),
                (["id": "acme", "issuer": "https://a.example", "clientId": "c", "clientSecret": "s", "label": "L",
                  "scopes": ["email"]], "scopes"),
                (["id": "acme", "issuer": "https://a.example", "clientId": "c", "clientSecret": "s", "label": "L",
                  "iconURL": "http://a.example/i.png"], "iconURL"),
                (["id": "apple", "preset": "apple", "issuer": "https://appleid.apple.com", "clientId": "c", "label": "L",
                  "appleKey": ["teamId": "T", "keyId": "K", "privateKeyPEM": "not a key"]], "appleKey"),
            ]
            for refusal in refusals {
                let answer = try await server.admin("POST", base, refusal.body)
                #expect(answer.status == 400, "\(refusal.body): \(answer.json)")
                let field = (answer.json["invalidFields"] as? [[String: Any]])?.first
                #expect(field?["name"] as? String == refusal.field, "\(refusal.body): \(answer.json)")
            }

            let removed = try await server.admin("DELETE", "\(base)/google")
            #expect(removed.status == 204)
            let gone = try await server.admin("GET", "\(base)/google")
            #expect(gone.status == 404)
            let goneAgain = try await server.admin("DELETE", "\(base)/google")
            #expect(goneAgain.status == 404)
            let unknownProject = try await server.admin("GET", "/admin/projects/prj_nope/identity-providers")
            #expect(unknownProject.status == 404)
            let unauthorized = try await server.request("GET", base)
            #expect(unauthorized.status == 401)
        }
    }
}
