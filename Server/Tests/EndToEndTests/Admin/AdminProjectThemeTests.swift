import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// `GET|PATCH /admin/projects/{projectId}/theme`, over real HTTP.
@Suite("Admin API: a project's hosted-page theme")
struct AdminProjectThemeTests {
    @Test func setsTheThemeAndKeepsItAcrossReads() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let created = try await server.admin("POST", "/admin/applications", ["name": "Acme Notes"])
            let projectId = try #require(created.json["projectId"] as? String)
            let path = "/admin/projects/\(projectId)/theme"

            // Nothing set: the default look under the project's name.
            let initial = try await server.admin("GET", path)
            #expect(initial.status == 200)
            #expect(initial.json["projectId"] as? String == projectId)
            #expect(initial.json["name"] as? String == "Acme Notes")
            #expect(initial.json["logoUrl"] == nil && initial.json["primaryColor"] == nil && initial.json["stylesheetUrl"] == nil)

            let saved = try await server.admin(
                "PATCH", path,
                ["name": "  Acme  ", "logoUrl": "https://cdn.acme.example/logo.svg", "primaryColor": "#1A73E8",
                 "stylesheetUrl": "https://cdn.acme.example/theme.css"])
            #expect(saved.status == 200, "\(saved.json)")
            #expect(saved.json["name"] as? String == "Acme")
            #expect(saved.json["logoUrl"] as? String == "https://cdn.acme.example/logo.svg")
            #expect(saved.json["primaryColor"] as? String == "#1a73e8")
            #expect(saved.json["stylesheetUrl"] as? String == "https://cdn.acme.example/theme.css")
            let read = try await server.admin("GET", path)
            #expect(NSDictionary(dictionary: read.json) == NSDictionary(dictionary: saved.json))

            // Members left out stay; null removes one.
            let changed = try await server.admin("PATCH", path, ["logoUrl": NSNull(), "primaryColor": "#000000"])
            #expect(changed.status == 200, "\(changed.json)")
            #expect(changed.json["logoUrl"] == nil)
            #expect(changed.json["primaryColor"] as? String == "#000000")
            #expect(changed.json["name"] as? String == "Acme")
            #expect(changed.json["stylesheetUrl"] as? String == "https://cdn.acme.example/theme.css")

            let refusals: [(body: [String: Any], field: String, says: String)] = [
                (["logoUrl": "http://cdn.acme.example/logo.svg"], "logoUrl", "https"),
                (["logoUrl": "javascript:alert(1)"], "logoUrl", "https"),
                (["logoUrl": "https:///logo.svg"], "logoUrl", ""),
                (["stylesheetUrl": "https://cdn.acme.example/a b.css"], "stylesheetUrl", "without spaces"),
                (["stylesheetUrl": "https://user:pw@cdn.acme.example/theme.css"], "stylesheetUrl", "user information"),
                (["stylesheetUrl": "https://cdn.acme.example/\"><script>"], "stylesheetUrl", "quotes"),
                (["primaryColor": "blue"], "primaryColor", "#rrggbb"),
                (["primaryColor": "#12345"], "primaryColor", "#rrggbb"),
                (["primaryColor": "#12345g"], "primaryColor", "#rrggbb"),
                (["name": "   "], "name", "1 to 100"),
                (["name": String(repeating: "n", count: 101)], "name", "1 to 100"),
                (["name": "Acme\u{7}"], "name", "control"),
                (["name": 7], "name", ""),
                // The name cannot be removed, unlike the optional members.
                (["name": NSNull()], "name", ""),
                // A valid member beside an invalid one is not saved either.
                (["name": "Other", "primaryColor": "red"], "primaryColor", "#rrggbb"),
            ]
            for refusal in refusals {
                let answer = try await server.admin("PATCH", path, refusal.body)
                #expect(answer.status == 400, "\(refusal.body): \(answer.json)")
                #expect(answer.json["code"] as? String == "invalid_request")
                let field = (answer.json["invalidFields"] as? [[String: Any]])?.first
                #expect(field?["name"] as? String == refusal.field, "\(refusal.body): \(answer.json)")
                let reason = field?["reason"] as? String ?? ""
                #expect(!reason.isEmpty && (refusal.says.isEmpty || reason.contains(refusal.says)), "\(refusal.body): \(reason)")
            }
            let after = try await server.admin("GET", path)
            #expect(NSDictionary(dictionary: after.json) == NSDictionary(dictionary: changed.json))

            let unknown = try await server.admin("GET", "/admin/projects/prj_nope/theme")
            #expect(unknown.status == 404 && unknown.json["code"] as? String == "project_not_found")
            let unknownPatch = try await server.admin("PATCH", "/admin/projects/prj_nope/theme", ["name": "X"])
            #expect(unknownPatch.status == 404)
            let unauthorized = try await server.request("GET", path)
            #expect(unauthorized.status == 401)
        }
    }
}
