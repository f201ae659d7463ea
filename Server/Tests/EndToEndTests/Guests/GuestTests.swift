import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Guests: anonymous users, their upgrade, the existing-account choice, the sweep")
struct GuestTests {
    static func policy(
        guests: [String: Any] = ["enabled": true], mfa: Bool = false, events: SMSGateway? = nil
    ) -> [String: Any] {
        var policy: [String: Any] = [
            "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "signup", "accountManage"], "guests": guests,
        ]
        if mfa {
            policy["mfaMethods"] = ["totp"]
            policy["mfaMode"] = "required"
        }
        if let events { policy["delivery"] = ["events": ["url": events.url, "signingSecret": events.secret]] }
        return policy
    }

    /// The claims of a JWT's payload, unverified (the SDK verified the ID token already).
    static func claims(_ jwt: String) throws -> [String: Any] {
        let part = String(jwt.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        let padded = part + String(repeating: "=", count: (4 - part.count % 4) % 4)
        let data = try #require(Data(base64Encoded: padded))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Signs `email` up with a plain sign-up flow.
    static func signUp(_ keyway: KeywayClient, _ server: TestServer, email: String) async throws -> TokenSet {
        await keyway.flow.start(flowType: .signup, identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let done = try #require(await keyway.flow.completion)
        return try await keyway.tokens.exchange(done)
    }

    @Test func aGuestGetsAnonymousTokensAndItsSignUpKeepsItsUserID() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy())) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            let guest = try await session.signInAsGuest()
            #expect(guest.idToken.isAnonymous == true)
            #expect(guest.idToken.email == nil)
            #expect(guest.response.refreshToken != nil)
            #expect(try Self.claims(guest.response.accessToken.revealed)["is_anonymous"] as? Bool == true)
            #expect(try Self.claims(try #require(guest.response.idToken).revealed)["is_anonymous"] as? Bool == true)
            #expect(try await session.currentAccount() == guest.idToken.subject)
            #expect(try await server.rowCount("users WHERE is_anonymous = 1") == 1)
            // A refresh keeps the guest a guest.
            let refreshed = try await session.refresh()
            #expect(refreshed.idToken.isAnonymous == true)

            // The upgrade: a sign-up started with the guest's token.
            try await session.upgradeGuest(identifier: "guest@example.com")
            #expect(keyway.flow.currentUpdate.enterCode != nil)
            await keyway.flow.submitCode(try await server.latestCode(to: "guest@example.com"))
            let done = try #require(await keyway.flow.completion)
            #expect(done.newUser == true)
            let upgraded = try await keyway.tokens.exchange(done)
            #expect(upgraded.idToken.subject == guest.idToken.subject)
            #expect(upgraded.idToken.email == "guest@example.com")
            #expect(upgraded.idToken.isAnonymous == false)
            #expect(try Self.claims(upgraded.response.accessToken.revealed)["is_anonymous"] == nil)
            #expect(try await server.rowCount("users") == 1)
            #expect(try await server.rowCount("users WHERE is_anonymous = 0 AND email = 'guest@example.com'") == 1)
            // The guest's own session goes on, no longer anonymous.
            #expect(try await session.refresh().idToken.isAnonymous == false)

            // The token is no longer a guest's: a second upgrade is refused.
            try await session.upgradeGuest(identifier: "other@example.com")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .notAGuest)
            // A guest token cannot open account management; a signed-up one can.
            try await session.manageAccount()
            #expect(keyway.flow.currentUpdate.prompt?.kind == .manageAccount)
        }
    }

    @Test func anExistingAccountIsOfferedAndSigningInToItHandsTheGuestOver() async throws {
        try await withTestServer(SMSGateway().start()) { gateway in
            try await withTestServer(AdaptiveHarness.start(policy: Self.policy(events: gateway))) { harness in
                let server = harness.server
                let keyway = try harness.sdk()
                let existing = try await Self.signUp(keyway, server, email: "ann@example.com")
                let events = Collector(keyway.events)
                let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
                let guest = try await session.signInAsGuest()

                try await session.upgradeGuest(identifier: "ann@example.com")
                // As any sign-up: the code first, so the answer says nothing of the account.
                #expect(keyway.flow.currentUpdate.enterCode != nil)
                await keyway.flow.submitCode(try await server.latestCode(to: "ann@example.com"))
                guard case (let hint)? = keyway.flow.currentUpdate.prompt?.accountExists else {
                    throw TestFailure("Expected the existing-account choice, got \(keyway.flow.currentUpdate)")
                }
                #expect(hint != "ann@example.com")
                #expect(hint.hasSuffix("@example.com"))
                let actions = keyway.flow.currentUpdate.promptContext?.step.actions.map(\.name) ?? []
                #expect(actions == ["signInInstead", "stayGuest", "cancel"])

                await keyway.flow.signInInstead()
                #expect(keyway.flow.currentUpdate.completion != nil)
                let done = try #require(await keyway.flow.completion)
                let signedIn = try await keyway.tokens.exchange(done)
                #expect(signedIn.idToken.subject == existing.idToken.subject)
                #expect(signedIn.idToken.subject != guest.idToken.subject)
                #expect(signedIn.idToken.isAnonymous == false)

                // The app hears of the merge, and so does its backend.
                try await waitUntil("the SDK emitted guestMerged") {
                    events.all.contains { $0.name == .guestMerged }
                }
                let merged = try #require(events.all.first { $0.name == .guestMerged })
                #expect(merged.data == ["guestUserId": guest.idToken.subject, "userId": existing.idToken.subject])
                try await waitUntil("the event reached the backend") {
                    gateway.requests.contains { $0.body.contains("guest.merged") }
                }
                let event = try #require(gateway.requests.first { $0.body.contains("guest.merged") })
                #expect(event.signatureValid)
                // The message goes to the account (`to`); its body is the event, as docs/server.md says.
                #expect(event.to == existing.idToken.subject)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(event.body.utf8)) as? [String: Any])
                #expect(json["type"] as? String == "guest.merged")
                #expect(json["guestUserId"] as? String == guest.idToken.subject)
                #expect(json["userId"] as? String == existing.idToken.subject)
                // Nothing was moved or deleted: the backend merges, the guest stays until swept.
                #expect(try await server.rowCount("users WHERE is_anonymous = 1") == 1)
                #expect(try await server.rowCount("users") == 2)
                events.cancel()
            }
        }
    }

    @Test func stayingAGuestEndsTheFlowAndKeepsTheGuestSession() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy())) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            _ = try await Self.signUp(keyway, server, email: "bob@example.com")
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            let guest = try await session.signInAsGuest()
            try await session.upgradeGuest(identifier: "bob@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "bob@example.com"))
            #expect(keyway.flow.currentUpdate.stepKind == .accountExists)
            let flowId = try #require(keyway.flow.currentUpdate.promptContext?.step.flowID)

            await keyway.flow.stayGuest()
            #expect(keyway.flow.currentUpdate == .idle)
            #expect(try await server.rowCount("flows WHERE id = '\(flowId)' AND state = 'cancelled'") == 1)
            let after = try await session.refresh()
            #expect(after.idToken.subject == guest.idToken.subject)
            #expect(after.idToken.isAnonymous == true)
            #expect(try await server.rowCount("users WHERE is_anonymous = 1") == 1)
            // stayGuest is an answer of that step only.
            await keyway.flow.start(flowType: .signin, identifier: "bob@example.com")
            await keyway.flow.stayGuest()
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .actionUnavailable)
        }
    }

    @Test func aGuestNeverPassesARequiredSecondFactorWithoutUpgrading() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy(mfa: true))) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            let guest = try await session.signInAsGuest()
            let guestToken = try #require(guest.response.idToken)
            let amr = try Self.claims(guestToken.revealed)["amr"] as? [String]
            #expect(amr == ["guest"])
            #expect(amr?.contains("mfa") == false)

            // What needs a signed-in account answers the upgrade path.
            try await session.manageAccount()
            let refused = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(refused.code == .upgradeRequired)
            #expect(refused.action == .abort)

            // The upgrade itself sets up the second factor before the account is complete.
            try await session.upgradeGuest(identifier: "mfa@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "mfa@example.com"))
            // The only second factor to set up is offered straight away, without a way to skip it.
            #expect(keyway.flow.currentUpdate.stepKind == .setupTotp)
            #expect(keyway.flow.currentUpdate.promptContext?.step.action(named: "skip") == nil)
            #expect(keyway.flow.currentUpdate.completion == nil)
            // Still a guest until the flow completes.
            #expect(try await server.rowCount("users WHERE is_anonymous = 1") == 1)
            let secret = try #require(keyway.flow.currentUpdate.totpSetup).secret
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            #expect(keyway.flow.currentUpdate.completion != nil)
            let done = try #require(await keyway.flow.completion)
            let upgraded = try await keyway.tokens.exchange(done)
            #expect(upgraded.idToken.subject == guest.idToken.subject)
            #expect(upgraded.idToken.authenticationMethods.contains("mfa"))
            #expect(upgraded.idToken.isAnonymous == false)
        }
    }

    @Test func anExistingAccountBehindAGuestStillAsksItsSecondFactor() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy(mfa: true))) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            // An account with its authenticator.
            await keyway.flow.start(flowType: .signup, identifier: "carol@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "carol@example.com"))
            if (keyway.flow.currentUpdate.methodChoice?.methods.count ?? 0) > 1 { await keyway.flow.selectMethod(id: "totp") }
            let secret = try #require(keyway.flow.currentUpdate.totpSetup).secret
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            #expect(keyway.flow.currentUpdate.completion != nil)
            harness.clock.advance(by: 31)

            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            _ = try await session.signInAsGuest()
            try await session.upgradeGuest(identifier: "carol@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "carol@example.com"))
            #expect(keyway.flow.currentUpdate.stepKind == .accountExists)
            await keyway.flow.signInInstead()
            // Signing in instead is a sign-in: the account's second factor, never skipped.
            #expect(keyway.flow.currentUpdate.completion == nil)
            guard case _? = keyway.flow.currentUpdate.prompt?.enterTotp else {
                throw TestFailure("Expected the authenticator code, got \(keyway.flow.currentUpdate)")
            }
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            #expect(keyway.flow.currentUpdate.completion != nil)
            let done = try #require(await keyway.flow.completion)
            let tokens = try await keyway.tokens.exchange(done)
            #expect(tokens.idToken.authenticationMethods.contains("mfa"))
            #expect(tokens.idToken.email == "carol@example.com")
        }
    }

    @Test func guestsFollowThePolicyAndAreRateLimitedPerAddress() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy(guests: ["enabled": false]))) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            await #expect {
                _ = try await keyway.signInAsGuest()
            } throws: { error in
                guard case KeywayError.problem(let problem) = error else { return false }
                return problem.code == .guestsDisabled && problem.status == 403
            }
            #expect(try await server.rowCount("users") == 0)

            // The policy's rules: guests need sign-up, and bounded settings.
            let refused = try await server.admin(
                "PUT", "/admin/applications/\(TestServer.configId)/policy",
                [
                    "primaryMethods": ["emailOtp"], "flowTypes": ["signin"],
                    "guests": ["enabled": true, "maxAge": 60, "perAddressPerHour": 0],
                ])
            #expect(refused.status == 422)
            let codes = (refused.json["problems"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String }
            #expect(Set(codes).isSuperset(of: ["guests_need_signup", "invalid_guest_max_age", "invalid_guest_rate"]))

            try await server.setPolicy(Self.policy(guests: ["enabled": true, "perAddressPerHour": 2]))
            _ = try await keyway.signInAsGuest()
            _ = try await keyway.signInAsGuest()
            await #expect {
                _ = try await keyway.signInAsGuest()
            } throws: { error in
                guard case KeywayError.problem(let problem) = error else { return false }
                return problem.code == .rateLimited && problem.action == .wait && problem.retryAfterSeconds != nil
            }
            #expect(try await server.rowCount("users WHERE is_anonymous = 1") == 2)
            harness.clock.advance(by: 3_601)
            _ = try await keyway.signInAsGuest()
            #expect(try await server.rowCount("users WHERE is_anonymous = 1") == 3)
        }
    }

    @Test func staleGuestsAreSweptWithTheirSessionsAndUpgradedOnesStay() async throws {
        try await withTestServer(
            AdaptiveHarness.start(policy: Self.policy(guests: ["enabled": true, "maxAge": 3_600]))
        ) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            let stale = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            let staleGuest = try await stale.signInAsGuest()
            let kept = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            let upgradedGuest = try await kept.signInAsGuest()
            try await kept.upgradeGuest(identifier: "kept@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "kept@example.com"))
            #expect(keyway.flow.currentUpdate.completion != nil)

            // Not yet: younger than maxAge.
            harness.clock.advance(by: 3_000)
            try await server.app.sweepNow()
            #expect(try await server.rowCount("users") == 2)
            let young = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            _ = try await young.signInAsGuest()

            harness.clock.advance(by: 700)
            try await server.app.sweepNow()
            #expect(try await server.rowCount("users WHERE id = '\(staleGuest.idToken.subject)'") == 0)
            #expect(try await server.rowCount("sessions WHERE user_id = '\(staleGuest.idToken.subject)'") == 0)
            #expect(try await server.rowCount("refresh_tokens WHERE user_id = '\(staleGuest.idToken.subject)'") == 0)
            #expect(try await server.rowCount("users WHERE id = '\(upgradedGuest.idToken.subject)'") == 1)
            // The guest made 700 seconds ago stays.
            #expect(try await server.rowCount("users WHERE is_anonymous = 1") == 1)
            // The swept guest's refresh token is dead: the session signs it out.
            await #expect(throws: SessionError.self) { _ = try await stale.refresh() }
        }
    }

    @Test func theBodysGuestTokenStartsAnUpgradeAndForeignTokensAreRefused() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy())) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            let guest = try await keyway.signInAsGuest()
            func start(_ body: [String: Any], headers: [String: String] = [:]) async throws -> (Int, [String: Any]) {
                var all = ["X-Keyway-Config-Id": TestServer.configId, "Content-Type": "application/json"]
                all.merge(headers) { _, new in new }
                var payload: [String: Any] = [
                    "flowType": "signup", "identifier": "body@example.com",
                    "codeChallenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM", "codeChallengeMethod": "S256",
                ]
                payload.merge(body) { _, new in new }
                let response = try await server.request(
                    "POST", "/v1/flows", headers: all, body: try JSONSerialization.data(withJSONObject: payload))
                return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
            }
            let (status, step) = try await start(["guestToken": guest.response.accessToken.revealed])
            #expect(status == 201)
            #expect(step["kind"] as? String == "enterCode")

            let (forged, problem) = try await start(["guestToken": "not-a-token"])
            #expect(forged == 401)
            #expect(problem["code"] as? String == "invalid_access_token")
            let (bearer, refused) = try await start([:], headers: ["Authorization": "Bearer not-a-token"])
            #expect(bearer == 401)
            #expect(refused["code"] as? String == "invalid_access_token")

            // A signed-up user's token is not a guest's.
            let account = try await Self.signUp(keyway, server, email: "member@example.com")
            let (member, notGuest) = try await start(["guestToken": account.response.accessToken.revealed])
            #expect(member == 409)
            #expect(notGuest["code"] as? String == "not_a_guest")
            // Without the application's config ID no token is looked at: the start is refused first.
            let (unnamed, noConfig) = try await start(
                [:], headers: ["X-Keyway-Config-Id": "", "Authorization": "Bearer \(account.response.accessToken.revealed)"])
            #expect(unnamed == 400)
            #expect(noConfig["code"] as? String == "missing_config_id")
            // Guests cannot be made without a config ID, nor for an unknown application.
            let missing = try await server.request("POST", "/v1/guests")
            #expect(missing.status == 400)
            let unknown = try await server.request("POST", "/v1/guests", headers: ["X-Keyway-Config-Id": "cfg_unknown"])
            #expect(unknown.status == 401)
        }
    }
}
