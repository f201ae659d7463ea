import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// The hosted account page as a portal: each sign-in method a row with its own buttons (set up
/// or not), no "Done" (nothing to go back to), signing out apart from the account's buttons, and
/// an operation's own pages (a fresh verification, a new password) without the account's extras.
@Suite("The hosted account page as a portal")
struct HostedAccountPortalTests {
    static var policy: [String: Any] {
        [
            "primaryMethods": ["emailOtp", "password"], "mfaMethods": ["totp"], "mfaMode": "optional",
            "flowTypes": ["signin", "signup", "accountManage"],
        ]
    }

    /// Signs `email` in through the pages by an email code, skipping the optional second factor.
    static func signIn(_ agent: PageAgent, _ server: TestServer, client: TestRelyingParty, email: String) async throws {
        var page = try await agent.open(client.authorizePath(TestRelyingParty.Request()))
        for _ in 0..<10 {
            if page.redirect != nil { return }
            if let identify = page.form("/login/identify") {
                page = try await agent.submit(identify, ["identifier": email])
            } else if let choice = page.form("/login/action", ["action": "selectMethod", "methodId": "emailOtp"]) {
                page = try await agent.submit(choice)
            } else if let code = page.form("/login/action", ["action": "submitCode"]) {
                page = try await agent.submit(code, ["code": try await server.latestCode(to: email)])
            } else if let skip = page.form("/login/action", ["action": "skip"]) {
                page = try await agent.submit(skip)
            } else {
                throw TestFailure("A page without a known step (\(page.status) \(page.path)): \(page.text)")
            }
        }
        throw TestFailure("The sign-in did not reach the client: \(page.text)")
    }

    @Test func methodsAreRowsWithTheirButtonsAndSigningOutStandsApart() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            #expect(
                try await server.admin("PUT", "/admin/applications/\(TestServer.configId)/policy", Self.policy).status == 200)
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            let agent = PageAgent(server: server)
            let email = "portal@example.com"
            try await Self.signIn(agent, server, client: client, email: email)

            let account = try await agent.open("/account")
            #expect(account.status == 200)
            #expect(account.text.contains("Your account"), "\(account.text)")
            // The address is shown whole to its owner.
            #expect(account.text.contains(email), "\(account.text)")
            // Methods not set up say so, each with the button that sets it up.
            let password = try #require(account.form("/login/action", ["action": "changePassword"]), "\(account.text)")
            #expect(password.button == "Set up")
            let authenticator = try #require(account.form("/login/action", ["action": "setupTotp"]))
            #expect(authenticator.button == "Set up")
            #expect(account.text.contains("Not set up"))
            // No "Done", no "Cancel": signing out is the page's last action, a link-like button.
            #expect(account.form("/login/action", ["action": "finish"]) == nil)
            #expect(account.form("/login/cancel") == nil)
            let signOut = try #require(account.form("/account/logout"))
            #expect(signOut.button == "Sign out")
            #expect(account.html.contains(#"class="kw-form kw-form-link" method="post" action="/account/logout""#))

            // Setting the password: a fresh verification first, on a page of its own with only
            // the way back, then the new password.
            var page = try await agent.submit(password)
            #expect(page.form("/account/logout") == nil, "\(page.text)")
            #expect(page.form("/login/cancel")?.button == "Back to your account", "\(page.text)")
            if let choice = page.form("/login/action", ["action": "selectMethod", "methodId": "emailOtp"]) {
                page = try await agent.submit(choice)
            }
            let code = try #require(page.form("/login/action", ["action": "submitCode"]), "\(page.text)")
            page = try await agent.submit(code, ["code": try await server.latestCode(to: email)])
            let choose = try #require(page.form("/login/action", ["action": "submitPassword"]), "\(page.text)")
            #expect(page.form("/account/logout") == nil)
            page = try await agent.submit(choose, ["password": "violet-harbor-new-7"])
            #expect(page.text.contains("Your password was changed."), "\(page.text)")
            #expect(page.form("/login/action", ["action": "changePassword"])?.button == "Change", "\(page.text)")
            #expect(page.form("/account/logout") != nil)
        }
    }
}
