import Foundation
@testable import Keyway
import KeywayTestSupport
import Testing

/// The hosted pages' wait for a trusted device's approval: the page shows the number to match,
/// reloads itself without JavaScript, asks the flow on each reload and continues to the client
/// once the trusted device (the real SDK) approved.
@Suite("Hosted pages: waiting for a trusted device's approval")
struct HostedLoginApprovalTests {
    @Test("The page reloads itself, shows the number to match and continues once approved")
    func approvalThroughTheHostedPages() async throws {
        try await withTestServer(ApprovalTests.setUp()) { setup in
            let server = setup.harness.server
            let clock = setup.harness.clock
            let email = ApprovalTests.email
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            let agent = PageAgent(server: server)

            var page = try await agent.open(client.authorizePath(TestRelyingParty.Request()))
            page = try await agent.submit(try #require(page.form("/login/identify"), "\(page.text)"), ["identifier": email])
            let code = try await server.latestCode(to: email)
            page = try await agent.submit(
                try #require(page.form("/login/action", ["action": "submitCode"]), "\(page.text)"), ["code": code])
            let choose = try #require(
                page.form("/login/action", ["action": "selectMethod", "methodId": "deviceApproval"]), "\(page.text)")
            page = try await agent.submit(choose)
            #expect(page.html.contains("http-equiv=\"refresh\""), "\(page.text)")

            let pending = try await setup.trusted.pendingApprovals(for: email)
            let request = try #require(pending.first)
            #expect(page.text.contains(request.matchingNumber))
            #expect(page.html.contains("<svg"))

            // Reloaded before any decision: the same wait (each reload asks the flow once).
            clock.advance(by: 2)
            page = try await agent.open("/login")
            #expect(page.html.contains("http-equiv=\"refresh\""))
            #expect(page.parameters["code"] == nil)

            try await setup.trusted.decide(request, .approve, for: email)
            clock.advance(by: 2)
            page = try await agent.open("/login")
            let issued = try #require(page.parameters["code"], "\(page.text)")
            #expect(page.parameters["iss"] == server.baseURL.absoluteString)
            #expect(issued.hasPrefix("kac_"))
        }
    }
}
