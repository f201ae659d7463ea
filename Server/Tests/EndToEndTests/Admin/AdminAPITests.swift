import Foundation
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Admin API: credential, applications, policies, invite codes, start tokens, blocking")
struct AdminAPITests {
    static let token = "test-admin-token-0123456789abcdefghijklmnop"

    /// An admin API request with a JSON body; answers the status and the JSON document.
    func admin(
        _ server: TestServer, _ method: String, _ path: String, _ body: Any? = nil, token: String? = AdminAPITests.token
    ) async throws -> (status: Int, headers: [String: String], json: [String: Any]) {
        var headers: [String: String] = [:]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        var data: Data?
        if let body {
            headers["Content-Type"] = "application/json"
            data = try JSONSerialization.data(withJSONObject: body)
        }
        let response = try await server.request(method, path, headers: headers, body: data)
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, response.headers, json)
    }

    @Test func refusesRequestsWithoutTheAdminToken() async throws {
        let logs = LogCapture()
        try await withTestServer(TestServer.start(clock: ManualClock(), logs: logs, adminToken: Self.token)) { server in
            #expect(server.app.createdAdminToken == nil)

            for token in [nil, "wrong-token", Self.token + "x", String(Self.token.dropLast())] as [String?] {
                let answer = try await admin(server, "GET", "/admin/applications", token: token)
                #expect(answer.status == 401)
                #expect(answer.json["code"] as? String == "admin_unauthorized")
                #expect((answer.json["detail"] as? String)?.isEmpty == false)
                #expect(answer.json["traceId"] as? String != nil)
                #expect(answer.headers.first { $0.key.lowercased() == "content-type" }?.value == Problem.mediaType)
            }
            let basic = try await server.request(
                "GET", "/admin/applications", headers: ["Authorization": "Basic \(Data(Self.token.utf8).base64EncodedString())"])
            #expect(basic.status == 401)
            // Policies of unknown applications are behind the same check.
            #expect(try await admin(server, "PUT", "/admin/applications/cfg_e2e/policy", ["primaryMethods": ["emailOtp"]], token: nil).status == 401)

            #expect(try await admin(server, "GET", "/admin/applications").status == 200)
            #expect(!logs.all.joined(separator: "\n").contains(Self.token))
            #expect(logs.all.joined(separator: "\n").contains("GET /admin/applications 401"))
        }
    }

    @Test func createsATokenOnFirstStartAndKeepsIt() async throws {
        let database = try await TestDatabase.fresh()
        let first = try await TestServer.start(database: database, clock: ManualClock())
        let created = try await withTestServer(first) { first in
            let created = try #require(first.app.createdAdminToken?.revealed)
            #expect(created.hasPrefix("kad_"))
            #expect(created.count > 40)
            #expect(try await admin(first, "GET", "/admin/applications", token: created).status == 200)
            #expect(!first.logs.all.joined(separator: "\n").contains(created))
            return created
        }

        try await withTestServer(TestServer.start(database: database, clock: ManualClock())) { second in
            #expect(second.app.createdAdminToken == nil)
            #expect(try await admin(second, "GET", "/admin/applications", token: created).status == 200)

            // A rotation takes effect at once, in the running server too.
            let rotated = try await second.app.admin.rotateAdminToken().revealed
            #expect(rotated.hasPrefix("kad_") && rotated != created)
            #expect(try await admin(second, "GET", "/admin/applications", token: created).status == 401)
            #expect(try await admin(second, "GET", "/admin/applications", token: rotated).status == 200)
        }
    }

    @Test func createsApplicationsAndReplacesPolicies() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: Self.token)) { server in

            let created = try await admin(server, "POST", "/admin/applications", ["name": "Shop", "clientType": "confidential"])
            #expect(created.status == 201)
            let configId = try #require(created.json["configId"] as? String)
            #expect(configId.hasPrefix("cfg_"))
            #expect((created.json["clientSecret"] as? String)?.hasPrefix("kcs_") == true)
            let publicApp = try await admin(server, "POST", "/admin/applications", ["name": "Mobile"])
            #expect(publicApp.status == 201)
            #expect(publicApp.json["clientType"] as? String == "public")
            #expect(publicApp.json["clientSecret"] == nil)

            let invalid = try await admin(server, "POST", "/admin/applications", ["name": " ", "clientType": "secret"])
            #expect(invalid.status == 400)
            #expect(invalid.json["code"] as? String == "invalid_request")

            // A second application of the Shop's project, and none in a project that does not exist.
            let shopProject = try #require(created.json["projectId"] as? String)
            let shopAdmin = try await admin(
                server, "POST", "/admin/applications", ["name": "Shop admin", "projectId": shopProject])
            #expect(shopAdmin.status == 201 && shopAdmin.json["projectId"] as? String == shopProject)
            let nowhere = try await admin(server, "POST", "/admin/applications", ["name": "Lost", "projectId": "prj_nope"])
            #expect(nowhere.status == 404, "\(nowhere.json)")
            let listedProjects = try #require(try await admin(server, "GET", "/admin/applications").json["applications"] as? [[String: Any]])
            #expect(!listedProjects.contains { $0["name"] as? String == "Lost" })

            let list = try await admin(server, "GET", "/admin/applications")
            let applications = try #require(list.json["applications"] as? [[String: Any]])
            let shop = try #require(applications.first { $0["configId"] as? String == configId })
            #expect(shop["name"] as? String == "Shop")
            #expect(shop["clientType"] as? String == "confidential")
            #expect(shop["flowTypes"] as? [String] == ["signin"])
            #expect(applications.contains { $0["configId"] as? String == TestServer.configId })

            // No policy stored yet: the default.
            let initial = try await admin(server, "GET", "/admin/applications/\(configId)/policy")
            #expect(initial.status == 200)
            #expect(initial.json["primaryMethods"] as? [String] == ["emailOtp"])
            #expect(initial.json["mfaMode"] as? String == "off")
            #expect(initial.json["flowTypes"] as? [String] == ["signin"])
            #expect(try await admin(server, "GET", "/admin/applications/cfg_nope/policy").json["code"] as? String == "application_not_found")

            let secret = String(repeating: "k", count: 40)
            let policy: [String: Any] = [
                "primaryMethods": ["emailOtp", "password"], "mfaMethods": ["totp", "smsOtp"], "mfaMode": "optional",
                "flowTypes": ["signin", "signup"],
                "signup": [
                    "requireInviteCode": true, "termsOfServiceURL": "https://shop.example.com/terms",
                    "profileFields": [["name": "displayName", "kind": "text", "label": "Name", "required": true, "maxLength": 60]],
                ],
                "password": ["minimumLength": 12],
                "delivery": ["sms": ["url": "https://hooks.shop.example.com/sms", "signingSecret": secret]],
            ]
            let saved = try await admin(server, "PUT", "/admin/applications/\(configId)/policy", policy)
            #expect(saved.status == 200)
            let savedSms = try #require((saved.json["delivery"] as? [String: Any])?["sms"] as? [String: Any])
            #expect(savedSms["signingSecret"] as? String == "********")
            #expect(savedSms["timeoutSeconds"] as? Int == 10)

            let shown = try await admin(server, "GET", "/admin/applications/\(configId)/policy")
            #expect(shown.json["flowTypes"] as? [String] == ["signin", "signup"])
            #expect(shown.json["primaryMethods"] as? [String] == ["emailOtp", "password"])
            #expect(!String(decoding: try JSONSerialization.data(withJSONObject: shown.json), as: UTF8.self).contains(secret))
            let listed = try #require(
                (try await admin(server, "GET", "/admin/applications").json["applications"] as? [[String: Any]])?
                    .first { $0["configId"] as? String == configId })
            #expect(listed["flowTypes"] as? [String] == ["signin", "signup"])
            #expect(try await server.rowCount("application_policies") == 1)

            // Sending the masked secret back keeps the stored one.
            var resent = shown.json
            resent["mfaMode"] = "required"
            #expect(try await admin(server, "PUT", "/admin/applications/\(configId)/policy", resent).status == 200)
            #expect(try await server.app.admin.policy(configId: configId).mfaMode == .required)

            // A policy that locks everyone out is refused, with every problem, and nothing changes.
            let lockOut: [String: Any] = ["primaryMethods": ["totp"], "flowTypes": ["signin"], "password": ["minimumLength": 6]]
            let refused = try await admin(server, "PUT", "/admin/applications/\(configId)/policy", lockOut)
            #expect(refused.status == 422)
            #expect(refused.json["code"] as? String == "invalid_policy")
            let problems = try #require(refused.json["problems"] as? [[String: Any]])
            #expect(problems.compactMap { $0["code"] as? String } == ["policy_locks_out_users", "invalid_password_length"])
            #expect((problems.first?["message"] as? String)?.contains("lock every user out") == true)
            #expect((refused.json["invalidFields"] as? [[String: Any]])?.count == 2)
            let after = try await admin(server, "GET", "/admin/applications/\(configId)/policy")
            #expect(after.json["primaryMethods"] as? [String] == ["emailOtp", "password"])
            #expect(after.json["mfaMode"] as? String == "required")
            #expect(after.json["flowTypes"] as? [String] == ["signin", "signup"])

            let malformed = try await admin(server, "PUT", "/admin/applications/\(configId)/policy", ["primaryMethods": ["magic"]])
            // An unknown method is a validation problem of its own, named with its position.
            #expect(malformed.status == 422)
            #expect(malformed.json["code"] as? String == "invalid_policy")
            let unknown = try #require(malformed.json["problems"] as? [[String: Any]])
            #expect(unknown.first?["code"] as? String == "unknown_method")
            #expect(unknown.first?["field"] as? String == "primaryMethods[0]")
            let broken = try await server.request(
                "PUT", "/admin/applications/\(configId)/policy",
                headers: ["Authorization": "Bearer \(Self.token)", "Content-Type": "application/json"], body: Data("{".utf8))
            #expect(broken.status == 400)
        }
    }

    @Test func inviteCodesAreRedeemedOnce() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: Self.token)) { server in
            let path = "/admin/applications/\(TestServer.configId)/invite-codes"

            let issued = try await admin(server, "POST", path)
            #expect(issued.status == 201)
            let code = try #require(issued.json["code"] as? String)
            let expiresAt = try #require((issued.json["expiresAt"] as? String).flatMap(WireCoding.parseTimestamp))
            #expect(abs(expiresAt.timeIntervalSince(clock.now()) - 7 * 86_400) < 1)
            #expect(try await admin(server, "POST", path, ["expiresInSeconds": 0]).status == 400)
            #expect(try await admin(server, "POST", "/admin/applications/cfg_nope/invite-codes").status == 404)

            let service = server.app.admin
            let applicationId = try await service.applicationId(configId: TestServer.configId)
            let now = clock.now()
            #expect(try await service.redeemInviteCode(applicationId: applicationId, code: code, userId: "usr_1", now: now) == .redeemed)
            #expect(try await service.redeemInviteCode(applicationId: applicationId, code: code, userId: "usr_2", now: now) == .used)
            #expect(try await service.redeemInviteCode(applicationId: applicationId, code: "inv_made_up", userId: "usr_1", now: now) == .invalid)

            let other = try await service.createApplication(name: "Other")
            let otherId = try await service.applicationId(configId: other.configId)
            let short = try await admin(server, "POST", path, ["expiresInSeconds": 60])
            let shortCode = try #require(short.json["code"] as? String)
            #expect(try await service.redeemInviteCode(applicationId: otherId, code: shortCode, userId: "usr_1", now: now) == .invalid)
            #expect(
                try await service.redeemInviteCode(
                    applicationId: applicationId, code: shortCode, userId: "usr_1", now: now.addingTimeInterval(61)) == .expired)
            #expect(try await server.rowCount("invite_codes") == 2)
        }
    }

    @Test func startTokensAreConsumedOnce() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: Self.token)) { server in
            let path = "/admin/applications/\(TestServer.configId)/start-tokens"

            let issued = try await admin(server, "POST", path, ["flowType": "signin", "identifier": "Ada@Example.com"])
            #expect(issued.status == 201)
            let token = try #require(issued.json["startToken"] as? String)
            #expect(token.hasPrefix("kst_"))
            let expiresAt = try #require((issued.json["expiresAt"] as? String).flatMap(WireCoding.parseTimestamp))
            #expect(abs(expiresAt.timeIntervalSince(clock.now()) - 600) < 1)

            let refusals: [[String: Any]] = [
                ["flowType": "signup", "identifier": "ada@example.com"],
                ["flowType": "signin", "identifier": "not an address"],
                ["flowType": "signin", "identifier": "ada@example.com", "expiresInSeconds": 3601],
                ["identifier": "ada@example.com"],
            ]
            for body in refusals {
                let answer = try await admin(server, "POST", path, body)
                #expect(answer.status == 400)
                #expect(answer.json["code"] as? String == "invalid_request")
            }

            let service = server.app.admin
            let applicationId = try await service.applicationId(configId: TestServer.configId)
            let claim = try await service.consumeStartToken(token: token, applicationId: applicationId, now: clock.now())
            #expect(claim == StartTokenClaim(flowType: .signin, identifier: "ada@example.com"))
            #expect(try await service.consumeStartToken(token: token, applicationId: applicationId, now: clock.now()) == nil)

            let late = try #require(
                try await admin(server, "POST", path, ["flowType": "signin", "identifier": "+447700900123", "expiresInSeconds": 30])
                    .json["startToken"] as? String)
            #expect(try await service.consumeStartToken(token: late, applicationId: "app_other", now: clock.now()) == nil)
            #expect(try await service.consumeStartToken(token: late, applicationId: applicationId, now: clock.now().addingTimeInterval(31)) == nil)
        }
    }

    @Test func blocksAndUnblocksUsers() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: Self.token)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(flowType: .signin, identifier: "grace@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "grace@example.com"))
            #expect(keyway.flow.currentUpdate.completion != nil)

            let found = try await admin(server, "GET", "/admin/users?email=Grace%40Example.com")
            #expect(found.status == 200)
            let user = try #require((found.json["users"] as? [[String: Any]])?.first)
            let userId = try #require(user["id"] as? String)
            #expect(user["blocked"] as? Bool == false)
            #expect(try await admin(server, "GET", "/admin/users?email=nobody%40example.com").json["users"] as? [Any] != nil)
            #expect(try await admin(server, "GET", "/admin/users").status == 400)

            let blocked = try await admin(server, "POST", "/admin/users/\(userId)/block")
            #expect(blocked.status == 200)
            #expect(blocked.json["blocked"] as? Bool == true)
            #expect(blocked.json["blockedAt"] as? String != nil)
            let again = try await admin(server, "GET", "/admin/users?email=grace%40example.com")
            #expect((again.json["users"] as? [[String: Any]])?.first?["blocked"] as? Bool == true)

            let unblocked = try await admin(server, "POST", "/admin/users/\(userId)/unblock")
            #expect(unblocked.status == 200)
            #expect(unblocked.json["blocked"] as? Bool == false)
            #expect(unblocked.json["blockedAt"] == nil)

            let missing = try await admin(server, "POST", "/admin/users/usr_nope/block")
            #expect(missing.status == 404)
            #expect(missing.json["code"] as? String == "user_not_found")
        }
    }
}
