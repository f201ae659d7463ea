import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

/// The hosted account page activates another device: a signed-in user asks for a code, sees it
/// once with its QR code, and a second device activates with it.
@Suite("PowerAuth on the hosted account page")
struct PowerAuthAccountPageTests {
    @Test func theAccountPageMakesACodeThatActivatesASecondDevice() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            let agent = PageAgent(server: server)
            let (signedIn, _) = try await agent.signIn(
                from: try await agent.open(client.authorizePath(TestRelyingParty.Request())), email: "pages@example.com")
            #expect(signedIn.parameters["code"] != nil, "\(signedIn.text)")

            let account = try await agent.open("/account")
            let make = try #require(account.form("/account/activation-code"), "\(account.text)")
            #expect(!account.text.contains("Devices activated for signing"))
            let shown = try await agent.submit(make)
            #expect(shown.status == 200, "\(shown.text)")
            #expect(shown.html.contains("<svg"), "the QR code is drawn")
            let code = try #require(
                HTMLForm.matches(#"([A-Z2-7]{5}-[A-Z2-7]{5}-[A-Z2-7]{5}-[A-Z2-7]{5})"#, in: shown.text).first?.last)
            // Shown once: the next visit of the page no longer has it.
            let again = try await agent.open("/login")
            #expect(!again.text.contains(code))

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
            #expect(listed.text.contains("Devices activated for signing"), "\(listed.text)")
            #expect(listed.text.contains(device.fingerprint))
        }
    }
}
