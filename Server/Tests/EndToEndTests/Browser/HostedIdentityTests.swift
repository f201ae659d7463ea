import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// The step pages say who is signing in, as typed, and offer "Not you?": the sign-in in
/// progress is abandoned and the identifier page comes back empty, the client's request kept.
@Suite("Hosted pages: who is signing in")
struct HostedIdentityTests {
    @Test func theStepPagesNameTheIdentifierAndNotYouStartsAgain() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            let agent = PageAgent(server: server)
            let request = TestRelyingParty.Request()
            let first = try await agent.open(client.authorizePath(request))
            var page = try await agent.submit(try #require(first.form("/login/identify")), ["identifier": "wrong@example.com"])
            #expect(page.text.contains("Signing in as") && page.text.contains("wrong@example.com"), "\(page.text)")
            let flowsBefore = try await server.rowCount("flows")

            page = try await agent.submit(try #require(page.form("/login/restart"), "\(page.html)"))
            let identify = try #require(page.form("/login/identify"), "\(page.text)")
            #expect((identify.values["identifier"] ?? "").isEmpty)
            #expect(page.form("/login/restart") == nil)
            #expect(try await server.rowCount("flows") == flowsBefore)

            // The right address now: the same client's request goes on to its code.
            page = try await agent.submit(identify, ["identifier": "right@example.com"])
            #expect(page.text.contains("right@example.com") && !page.text.contains("wrong@example.com"), "\(page.text)")
            let code = try #require(page.form("/login/action", ["action": "submitCode"]))
            page = try await agent.submit(code, ["code": try await server.latestCode(to: "right@example.com")])
            let answer = try #require(page.redirect, "\(page.status) \(page.text)")
            #expect(answer.queryItems?.first { $0.name == "state" }?.value == request.state)
        }
    }
}
