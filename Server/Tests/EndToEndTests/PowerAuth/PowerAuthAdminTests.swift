import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("PowerAuth administration: credentials, settings, activation codes, the user's own activations")
struct PowerAuthAdminTests {
    @Test func credentialsAreMadeOnceAndSettingsAreChecked() async throws {
        try await PowerAuthFixture.run { fixture in
            let path = "/admin/applications/\(TestServer.configId)/powerauth"
            let again = try await fixture.admin("GET", path)
            #expect(again.status == 200)
            #expect(again.json["applicationKey"] as? String == fixture.application.applicationKey)
            #expect(again.json["applicationSecret"] as? String == fixture.application.applicationSecret)
            #expect(again.json["configId"] as? String == TestServer.configId)
            let master = try #require((again.json["masterServerPublicKey"] as? String).flatMap { Data(base64Encoded: $0) })
            #expect(master.count == 65 && master.first == 4)
            #expect(Data(base64Encoded: fixture.application.applicationKey)?.count == 16)
            #expect(Data(base64Encoded: fixture.application.applicationSecret)?.count == 16)
            #expect(again.json["maxFailedAttempts"] as? Int == 5 && again.json["recoveryEnabled"] as? Bool == true)

            for bad in [0, 21] {
                let refused = try await fixture.admin("PATCH", path, ["maxFailedAttempts": bad])
                #expect(refused.status == 400 && refused.json["code"] as? String == "invalid_request")
            }
            let patched = try await fixture.admin("PATCH", path, ["maxFailedAttempts": 7])
            #expect(patched.status == 200 && patched.json["maxFailedAttempts"] as? Int == 7 && patched.json["recoveryEnabled"] as? Bool == true)
            #expect(try await fixture.admin("GET", "/admin/applications/nope/powerauth").status == 404)
            // The secrets are sealed in the database.
            if let file = fixture.server.databaseFile {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                    + ((try? Data(contentsOf: URL(fileURLWithPath: file + "-wal"))) ?? Data())
                #expect(bytes.range(of: Data(fixture.application.applicationSecret.utf8)) == nil)
            }
            let unauthenticated = try await fixture.server.request("GET", path)
            #expect(unauthenticated.status == 401)
        }
    }

    @Test func anIndependentClientVerifiesTemporaryKeysAndCodeSignatures() async throws {
        try await PowerAuthFixture.run { fixture in
            let created = try await fixture.admin(
                "POST", "/admin/users/\(fixture.userId)/activations", ["configId": TestServer.configId])
            let settings = try await fixture.admin("GET", "/admin/applications/\(TestServer.configId)/powerauth")
            var input = settings.json
            input["activationCode"] = created.json["activationCode"]
            input["activationSignature"] = created.json["activationSignature"]
            let (status, output) = try await PythonScript.run(
                "powerauth_keystore.py", ["--base-url", fixture.server.baseURL.absoluteString],
                input: try JSONSerialization.data(withJSONObject: input))
            #expect(status == 0, "powerauth_keystore.py: \(output)")
            #expect(output.contains("verified activation code signature"))
            #expect(output.contains("publicKey=65 bytes lifetime=300s"))
        }
    }

    @Test func activationCodeRequestsAreChecked() async throws {
        try await PowerAuthFixture.run { fixture in
            let path = "/admin/users/\(fixture.userId)/activations"
            for (body, field) in [
                (["configId": TestServer.configId, "expiresIn": 59], "expiresIn"),
                (["configId": TestServer.configId, "expiresIn": 604_801], "expiresIn"),
                (["configId": TestServer.configId, "otp": "123"], "otp"),
                (["configId": TestServer.configId, "commit": "later"], "commit"),
                ([:], "configId"),
            ] as [([String: Any], String)] {
                let answer = try await fixture.admin("POST", path, body)
                #expect(answer.status == 400, "\(field): \(answer.json)")
            }
            #expect(try await fixture.admin("POST", "/admin/users/nobody/activations", ["configId": TestServer.configId]).status == 404)
            #expect(try await fixture.admin("POST", path, ["configId": "cfg_missing"]).status == 404)
            #expect(try await fixture.admin("GET", "/admin/users/nobody/activations").status == 404)
            let created = try await fixture.admin("POST", path, ["configId": TestServer.configId, "expiresIn": 3600, "name": "Tablet"])
            #expect(created.status == 201)
            let expiresAt = try #require(created.json["expiresAt"] as? String)
            #expect(ISO8601DateFormatter().date(from: expiresAt) != nil)
            let listed = try await fixture.listed(try #require(created.json["activationId"] as? String))
            #expect(listed?["name"] as? String == "Tablet" && listed?["fingerprint"] == nil)
        }
    }

    @Test func aSignedInUserMakesACodeForASecondDeviceAndListsTheirs() async throws {
        try await PowerAuthFixture.run { fixture in
            let auth = ["Authorization": "Bearer \(fixture.accessToken)", "Content-Type": "application/json"]
            let created = try await fixture.server.request(
                "POST", "/v1/user/activations", headers: auth, body: Data(#"{"commit":"automatic"}"#.utf8))
            #expect(created.status == 201)
            let json = try #require(try JSONSerialization.jsonObject(with: created.body) as? [String: Any])
            let code = try #require(json["activationCode"] as? String)
            var device = fixture.device()
            #expect(try await device.activate(type: "CODE", identity: ["code": code]).status == 200)

            let list = try await fixture.server.request("GET", "/v1/user/activations", headers: auth)
            #expect(list.status == 200)
            let activations = try #require(
                (try JSONSerialization.jsonObject(with: list.body) as? [String: Any])?["activations"] as? [[String: Any]])
            #expect(activations.count == 1)
            #expect(activations.first?["status"] as? String == "ACTIVE")
            #expect(activations.first?["fingerprint"] as? String == device.fingerprint)

            #expect(try await fixture.server.request("GET", "/v1/user/activations").status == 401)
            #expect(try await fixture.server.request(
                "POST", "/v1/user/activations", headers: ["Authorization": "Bearer nope", "Content-Type": "application/json"],
                body: Data("{}".utf8)).status == 401)
        }
    }
}
