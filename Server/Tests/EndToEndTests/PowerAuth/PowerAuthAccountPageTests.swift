import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

/// The hosted account page activates another device where the application uses device
/// activation: the account step's operation asks for a fresh verification, then shows the code
/// with its QR code, and a second device activates with it. A browser session alone makes no code.
@Suite("PowerAuth on the hosted account page")
struct PowerAuthAccountPageTests {
    @Test func theAccountStepMakesACodeAfterAFreshVerificationThatActivatesASecondDevice() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), limits: .unthrottledPowerAuth, adminToken: testAdminToken)) { server in
            // The application uses device activation, and opens account management.
            #expect(try await server.admin("GET", "/admin/applications/\(TestServer.configId)/powerauth").status == 200)
            #expect(
                try await server.admin(
                    "PUT", "/admin/applications/\(TestServer.configId)/policy", PowerAuthAccountManagementTests.policy
                ).status == 200)
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            let agent = PageAgent(server: server)
            let email = "pages@example.com"
            let (signedIn, _) = try await agent.signIn(
                from: try await agent.open(client.authorizePath(TestRelyingParty.Request())), email: email)
            #expect(signedIn.parameters["code"] != nil, "\(signedIn.text)")

            let account = try await agent.open("/account")
            #expect(account.form("/account/activation-code") == nil)
            #expect(!account.text.contains("Devices activated for signing"))
            // The page's session is not enough: the route that made a code from it alone is gone.
            let bare = try await server.request("POST", "/account/activation-code")
            #expect(bare.status == 404)
            let make = try #require(account.form("/login/action", ["action": "createActivationCode"]), "\(account.text)")
            var page = try await agent.submit(make)
            if let choice = page.form("/login/action", ["action": "selectMethod", "methodId": "emailOtp"]) {
                page = try await agent.submit(choice)
            }
            #expect(!page.html.contains("<svg"), "no code before the fresh verification")
            let enter = try #require(page.form("/login/action", ["action": "submitCode"]), "\(page.text)")
            let shown = try await agent.submit(enter, ["code": try await server.latestCode(to: email)])
            #expect(shown.status == 200, "\(shown.text)")
            #expect(shown.html.contains("<svg"), "the QR code is drawn")
            let code = try #require(
                HTMLForm.matches(#"([A-Z2-7]{5}-[A-Z2-7]{5}-[A-Z2-7]{5}-[A-Z2-7]{5})"#, in: shown.text).first?.last)

            let settings = try await server.admin("GET", "/admin/applications/\(TestServer.configId)/powerauth")
            let application = PowerAuthTestApplication(
                applicationKey: try #require(settings.json["applicationKey"] as? String),
                applicationSecret: try #require(settings.json["applicationSecret"] as? String),
                masterPublicKey: try ActivationSignature.publicKey(
                    Data(base64Encoded: try #require(settings.json["masterServerPublicKey"] as? String))!))
            var device = PowerAuthTestDevice(server: server, application: application)
            let answer = try await device.activate(type: "CODE", identity: ["code": code])
            #expect(answer.status == 200, "\(answer.json)")
            #expect(try await device.status().state == .active)
            let listed = try await agent.open("/login")
            #expect(listed.text.contains("Devices that sign for"), "\(listed.text)")
            #expect(listed.text.contains(device.fingerprint))
        }
    }
}
