import Foundation
@testable import Keyway
import KeywayPowerAuth
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Secrets never reach the logs")
struct LogSecrecyTests {
    @Test func codesTokensAndSecretsStayOutOfEveryLogLine() async throws {
        let clock = ManualClock()
        let logs = LogCapture()
        try await withTestServer(TestServer.start(clock: clock, logs: logs)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "secret@example.com")
            let flowToken = try #require(await keyway.flow.currentStep?.flowToken?.revealed)
            let code = try await server.latestCode(to: "secret@example.com")
            await keyway.flow.submitCode(code)
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let verifier = try #require(completion.codeVerifier)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: verifier)

            let lines = logs.all
            #expect(lines.contains { $0.contains("POST /v1/flows 201") })
            #expect(lines.contains { $0.contains("POST /oauth2/token 200") })
            // The code appears only on the dev outbox line.
            let withCode = lines.filter { $0.contains(code) }
            #expect(withCode.count == 1)
            #expect(withCode.allSatisfy { $0.contains("dev outbox") })
            let secrets = [
                flowToken, completion.authCode.revealed, verifier.revealed, tokens.response.accessToken.revealed,
                tokens.response.idToken!.revealed, tokens.response.refreshToken!.revealed,
            ]
            for secret in secrets {
                #expect(!lines.contains { $0.contains(secret) })
            }
            // Every request line carries a trace ID.
            #expect(lines.filter { $0.contains(" /v1/flows") }.allSatisfy { $0.contains("traceId=") })
        }
    }

    @Test func linksRegistrationTokensClientSecretsActivationCodesAndPUKsStayOutOfEveryLogLine() async throws {
        let clock = ManualClock()
        let logs = LogCapture()
        try await withTestServer(
            TestServer.start(clock: clock, logs: logs, limits: .unthrottledPowerAuth, adminToken: testAdminToken)
        ) { server in
            var secrets: [String: String] = [:]
            // A signed-in user, then a sign-in link to them, opened: its token is a path segment.
            let email = "logs@example.com"
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: email)
            await keyway.flow.submitCode(try await server.latestCode(to: email))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            try await server.setPolicy(SignInLinkTests.policy)
            let linked = try makeKeyway(server, clock: clock)
            await linked.flow.start(flowType: .signin, identifier: email)
            let link = try SignInLinkTests.link(in: try #require(try await server.outbox(to: email).last?.body))
            secrets["sign-in link"] = link.lastPathComponent
            #expect(try await server.request("GET", link.path).status == 200)

            // A registration token, and the client secret of the client it registers.
            let registration = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId)
            secrets["registration token"] = registration.revealed
            let registered = try await server.request(
                "POST", "/oauth2/register",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(registration.revealed)"],
                body: try JSONSerialization.data(withJSONObject: [
                    "client_name": "Log reader", "token_endpoint_auth_method": "client_secret_basic",
                    "redirect_uris": ["https://logs.example.com/callback"],
                ]))
            let client = (try JSONSerialization.jsonObject(with: registered.body)) as? [String: Any] ?? [:]
            secrets["client secret"] = try #require(client["client_secret"] as? String, "\(client)")

            // An activation code, and the recovery code and PUK of the device activated with it.
            let settings = try await server.admin("GET", "/admin/applications/\(TestServer.configId)/powerauth")
            let issued = try await server.admin(
                "POST", "/admin/users/\(tokens.idToken.subject)/activations", ["configId": TestServer.configId])
            let activationCode = try #require(issued.json["activationCode"] as? String, "\(issued.json)")
            secrets["activation code"] = activationCode
            var device = PowerAuthTestDevice(
                server: server,
                application: PowerAuthTestApplication(
                    applicationKey: try #require(settings.json["applicationKey"] as? String),
                    applicationSecret: try #require(settings.json["applicationSecret"] as? String),
                    masterPublicKey: try ActivationSignature.publicKey(
                        Data(base64Encoded: try #require(settings.json["masterServerPublicKey"] as? String))!)))
            #expect(try await device.activate(type: "CODE", identity: ["code": activationCode]).status == 200)
            let recovery = try #require(device.recovery)
            secrets["recovery code"] = recovery.code
            secrets["PUK"] = recovery.puk

            let lines = logs.all
            #expect(lines.contains { $0.contains("GET /link/{token} 200") }, "\(lines.filter { $0.contains("/link") })")
            // Dev mode's outbox writes the messages it "sends" to the log, the link with them: that
            // line only (production has no dev outbox).
            let outside = lines.filter { !$0.contains("dev outbox") }
            for (kind, secret) in secrets {
                #expect(!secret.isEmpty)
                #expect(!outside.contains { $0.contains(secret) }, "a \(kind) is in the logs: \(outside.filter { $0.contains(secret) })")
            }
        }
    }

    @Test func sdkUpdatesDoNotPrintSecrets() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "print@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "print@example.com"))
            let update = keyway.flow.currentUpdate
            let completion = try #require(update.completion)
            let printed = "\(update)"
            #expect(!printed.contains(completion.authCode.revealed))
            #expect(!printed.contains(completion.codeVerifier!.revealed))
        }
    }
}
