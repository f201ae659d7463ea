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
            "flowTypes": ["signin", "accountManage"],
        ]
    }

    /// Signs `email` in through the pages by an email code, skipping the optional second factor.
    static func signIn(_ agent: PageAgent, _ server: TestServer, client: TestRelyingParty, email: String) async throws {
        var page = try await agent.open(client.authorizePath(TestRelyingParty.Request()))
        var trail: [String] = []
        for _ in 0..<10 {
            if page.redirect != nil { return }
            trail.append("\(page.status) \(page.path) \(page.forms.map { $0.values["action"] ?? $0.path }) \(page.text.prefix(300))")
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
        throw TestFailure("The sign-in did not reach the client: \(trail) \(page.status) \(page.text)")
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

    /// Two browsers signed in to one account: each sees both sessions, its own marked "This
    /// browser" without a button; signing the other out from here ends that browser's hosted
    /// session too, and "Sign out everywhere else" keeps only this one.
    @Test func theSessionsAreListedAndTheOthersSignedOutFromTheAccount() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            #expect(
                try await server.admin("PUT", "/admin/applications/\(TestServer.configId)/policy", Self.policy).status == 200)
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            let email = "sessions@example.com"
            let here = PageAgent(server: server)
            let there = PageAgent(server: server)
            try await Self.signIn(here, server, client: client, email: email)
            try await Self.signIn(there, server, client: client, email: email)

            var account = try await here.open("/account")
            #expect(account.text.contains("Where you are signed in"), "\(account.text)")
            #expect(account.text.contains("This browser"), "\(account.text)")
            // One other session: one row button, and the section's own.
            let others = account.forms.filter { $0.values["action"] == "endSession" }
            #expect(others.count == 1, "\(account.text)")
            var other = try #require(others.first)
            #expect(other.button == "Sign out")
            #expect(account.form("/login/action", ["action": "endOtherSessions"])?.button == "Sign out everywhere else")
            // The other browser sees this one as its other session.
            let seenThere = try await there.open("/account")
            #expect(seenThere.forms.filter { $0.values["action"] == "endSession" }.count == 1, "\(seenThere.text)")
            // Past an access token's lifetime, with no refresh token: still listed while that
            // browser stays signed in to the hosted pages.
            clock.advance(by: 16 * 60)
            account = try await here.open("/account")
            #expect(account.forms.filter { $0.values["action"] == "endSession" }.count == 1, "\(account.text)")

            other = try #require(account.forms.first { $0.values["action"] == "endSession" })
            account = try await here.submit(other)
            #expect(account.text.contains("That session is signed out."), "\(account.text)")
            #expect(account.forms.allSatisfy { $0.values["action"] != "endSession" }, "\(account.text)")
            #expect(account.form("/login/action", ["action": "endOtherSessions"]) == nil)
            #expect(account.text.contains("This browser"))
            // That browser is signed out of the hosted pages, not only of the application.
            let after = try await there.open("/account")
            #expect(after.text.contains("Sign in through one of this project's applications first"), "\(after.text)")

            // Signed in again there, then every other session out at once.
            try await Self.signIn(there, server, client: client, email: email)
            account = try await here.open("/account")
            let everywhere = try #require(account.form("/login/action", ["action": "endOtherSessions"]), "\(account.text)")
            account = try await here.submit(everywhere)
            #expect(account.text.contains("Every other session is signed out."), "\(account.text)")
            #expect(account.forms.allSatisfy { $0.values["action"] != "endSession" })
            #expect(try await there.open("/account").text.contains("Sign in through one of this project's applications first"))
            // This browser stays signed in.
            #expect(try await here.open("/account").text.contains("This browser"))
        }
    }
}
