import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// `GET|PUT /admin/projects/{projectId}/profile-schema`, over real HTTP, and what the project's
/// users then see of it.
@Suite("Admin API: a project's profile schema")
struct AdminProfileSchemaTests {
    @Test func setsTheSchemaWholeAndTheUsersProfileFollowsIt() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let application = try await server.admin("GET", "/admin/applications/\(TestServer.configId)")
            let projectId = try #require(application.json["projectId"] as? String)
            let path = "/admin/projects/\(projectId)/profile-schema"

            let initial = try await server.admin("GET", path)
            #expect(initial.status == 200 && initial.json["projectId"] as? String == projectId)
            #expect((initial.json["fields"] as? [Any])?.isEmpty == true)

            // Invalid fields: refused by name, nothing saved.
            let refused = try await server.admin(
                "PUT", path,
                ["fields": [["name": "Bad Name", "type": "string"], ["name": "pin", "type": "number", "encrypted": true]]])
            #expect(refused.status == 400, "\(refused.json)")
            let detail = refused.json["detail"] as? String ?? ""
            #expect(detail.contains("Bad Name:") && detail.contains("pin:"), "\(detail)")
            #expect((try await server.admin("GET", path).json["fields"] as? [Any])?.isEmpty == true)
            let malformed = try await server.admin("PUT", path, ["fields": [["name": "x", "type": "date"]]])
            #expect(malformed.status == 400)

            let saved = try await server.admin(
                "PUT", path,
                ["fields": [["name": "given_name", "type": "string", "required": true, "maxLength": 40], ["name": "age", "type": "number"]]])
            #expect(saved.status == 200, "\(saved.json)")
            let fields = try #require(saved.json["fields"] as? [[String: Any]])
            #expect(fields.map { $0["name"] as? String } == ["given_name", "age"])
            let read = try await server.admin("GET", path)
            #expect(NSDictionary(dictionary: read.json) == NSDictionary(dictionary: saved.json))

            // The project's users are held to it.
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "schema@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "schema@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!)
            let profile = try await keyway.tokenClient.profile(accessToken: tokens.response.accessToken)
            #expect(profile.schema.map(\.name) == ["given_name", "age"])
            await #expect(throws: KeywayError.self) {
                _ = try await keyway.tokenClient.updateProfile(accessToken: tokens.response.accessToken, changes: ["age": .number(36)])
            }

            let unknown = try await server.admin("GET", "/admin/projects/prj_nope/profile-schema")
            #expect(unknown.status == 404 && unknown.json["code"] as? String == "project_not_found")
            #expect(try await server.admin("PUT", "/admin/projects/prj_nope/profile-schema", ["fields": []]).status == 404)
            #expect(try await server.request("GET", path).status == 401)
        }
    }
}
