import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// A hosted sign-in (`/oauth2/authorize`) by a sign-in link, in a browser without JavaScript.
@Suite("Sign-in links in the hosted pages")
struct HostedSignInLinkTests {
    static let email = SignInLinkTests.email

    /// Starts a hosted sign-in of `email` up to its code page.
    static func codePage(_ harness: AdaptiveHarness, _ browser: PageAgent, _ client: TestRelyingParty, _ request: TestRelyingParty.Request)
        async throws -> PageAgent.Page
    {
        let first = try await browser.open(client.authorizePath(request))
        let identify = try #require(first.form("/login/identify"), "\(first.text)")
        return try await browser.submit(identify, ["identifier": email])
    }

    /// The `amr` of the ID token of a token response.
    static func amr(_ tokens: [String: Any]) throws -> [String]? {
        let idToken = try #require(tokens["id_token"] as? String)
        var payload = String(idToken.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        let claims = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: payload))) as? [String: Any]
        return claims?["amr"] as? [String]
    }

    @Test func theLinkOpenedInTheSameBrowserContinuesTheHostedSignInToTheApplication() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: SignInLinkTests.policy)) { harness in
            let client = TestRelyingParty()
            try await harness.server.registerRedirectURI(client.redirectURI)
            let browser = PageAgent(server: harness.server)
            let request = TestRelyingParty.Request()
            let page = try await Self.codePage(harness, browser, client, request)

            // The code page says a link went out too; the code input stays, and the link's token is
            // never typed there.
            #expect(page.status == 200)
            #expect(page.text.contains("We sent a sign-in link and a 6-digit code to a•••@example.com"), "\(page.text)")
            #expect(page.form("/login/action", ["action": "submitCode"]) != nil)
            #expect(page.form("/login/action", ["action": "poll"]) != nil)
            #expect(page.form("/login/action", ["action": "openLink"]) == nil)

            // The link, opened in the same browser: its Continue goes on to the application.
            let link = try await SignInLinkTests.link(to: Self.email, harness)
            let linkPage = try await browser.open(link.path)
            let done = try await browser.submit(try #require(linkPage.form(link.path)))
            let code = try #require(done.parameters["code"], "\(done.status) \(done.path): \(done.text)")
            #expect(done.parameters["state"] == request.state)
            let redeemed = try await client.redeem(harness.server, code: code, request: request)
            #expect(redeemed.status == 200, "\(redeemed.json)")
            #expect(try Self.amr(redeemed.json) == ["otp"])

            // Spent: opened again, it says so.
            #expect(try await browser.open(link.path).status == 410)
        }
    }

    @Test func approvedInAnotherBrowserTheHostedSignInGoesOnWhenChecked() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: SignInLinkTests.policy)) { harness in
            let client = TestRelyingParty()
            try await harness.server.registerRedirectURI(client.redirectURI)
            let browser = PageAgent(server: harness.server)
            let request = TestRelyingParty.Request()
            let page = try await Self.codePage(harness, browser, client, request)
            let check = try #require(page.form("/login/action", ["action": "poll"]))

            // Another browser (a phone) opens the link: it is asked, and approves.
            let link = try await SignInLinkTests.link(to: Self.email, harness)
            let phone = PageAgent(server: harness.server)
            let question = try await phone.submit(try #require(try await phone.open(link.path).form(link.path)))
            #expect(question.text.contains("Is this you signing in"), "\(question.text)")
            _ = try await phone.submit(try #require(question.form(link.path, ["decision": "approve"])))

            harness.clock.advance(by: 2)
            let done = try await browser.submit(check)
            let code = try #require(done.parameters["code"], "\(done.status) \(done.path): \(done.text)")
            #expect(try await client.redeem(harness.server, code: code, request: request).status == 200)
        }
    }

    @Test func aLinkOfAnotherSignInDoesNotCompleteTheBrowsersOwnHostedSignIn() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: SignInLinkTests.policy)) { harness in
            let client = TestRelyingParty()
            try await harness.server.registerRedirectURI(client.redirectURI)
            let browser = PageAgent(server: harness.server)
            let request = TestRelyingParty.Request()
            // The browser signs in as Ann; Bob's sign-in (an app) sent Bob a link.
            _ = try await Self.codePage(harness, browser, client, request)
            let bob = try harness.sdk { $0.autoPollApprovals = false }
            await bob.flow.start(flowType: .signin, identifier: "bob@example.com")
            let bobsLink = try await SignInLinkTests.link(to: "bob@example.com", harness)

            // Bob's link in Ann's browser: only the question, as on any other device.
            let asked = try await browser.submit(try #require(try await browser.open(bobsLink.path).form(bobsLink.path)))
            #expect(asked.parameters["code"] == nil)
            #expect(asked.text.contains("Is this you signing in"), "\(asked.text)")

            // Ann's own sign-in is where it was, and her code finishes it.
            let page = try await browser.open("/login")
            let submit = try #require(page.form("/login/action", ["action": "submitCode"]), "\(page.text)")
            let done = try await browser.submit(submit, ["code": try await harness.server.latestCode(to: Self.email)])
            #expect(done.parameters["code"] != nil, "\(done.text)")
        }
    }
}
