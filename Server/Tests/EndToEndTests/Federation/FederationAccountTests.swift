import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport
import KeywayUI
import Testing

/// What an upstream identity does to an account, over real HTTP against the stand-in provider:
/// "sign in to link" (`linkAccount`, linked only once the sign-in to the account completes),
/// sign-up through the provider (allowed or not), the policy's second factor after the provider,
/// a provider that is down, Google's issuer spellings and a provider rotating its key.
@Suite("Federation: linking, sign-up and the policy after the provider")
struct FederationAccountTests {
    typealias RawFlow = FederationFlowTests.RawFlow

    static let redirectURI = URL(string: "com.example.app:/callback")!

    /// A client of the test application.
    static func client(_ server: TestServer) throws -> KeywayClient {
        try KeywayClient(
            configID: TestServer.configId, baseURL: server.baseURL,
            options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient))
    }

    /// Starts a flow through the SDK, chooses the provider `providerId`, plays the browser for
    /// `claims` and hands the return to the flow.
    static func signIn(
        _ keyway: KeywayClient, identifier: String, provider: StandInOIDCProvider, server: TestServer,
        claims: [String: JSONValue], providerId: String = "acme", throughTheBrowser: Bool = true
    ) async throws {
        await keyway.flow.start(identifier: identifier, options: FlowStartOptions(redirectURI: redirectURI))
        guard case (let methods, _, _)? = keyway.flow.currentUpdate.prompt?.selectMethod else {
            throw TestFailure("\(keyway.flow.currentUpdate)")
        }
        #expect(methods.contains { $0.id == "federation:\(providerId)" })
        await keyway.flow.selectMethod(id: "federation:\(providerId)")
        guard case (let url, _, _)? = keyway.flow.currentUpdate.prompt?.redirect else {
            throw TestFailure("\(keyway.flow.currentUpdate)")
        }
        guard throughTheBrowser else {
            // The app received the provider's code and state itself (a platform sign-in button).
            let (code, state) = try provider.issueCode(for: claims, authorizationURL: url.absoluteString)
            await keyway.flow.oauthCallback(code: code, state: state)
            return
        }
        let returned = try await FederationSDKTests.browse(url, provider: provider, server: server, claims: claims)
        await keyway.flow.oauthCallback(url: returned)
    }

    /// The test server, the stand-in provider `acme` as the application's only provider, and the
    /// verified account ada@example.com.
    func prepare(_ server: TestServer, provider: StandInOIDCProvider, policy: [String: Any]? = nil) async throws {
        try await FederationFlowTests().prepare(server, provider: provider)
        try await server.registerLoginRedirectURI(Self.redirectURI.absoluteString)
        try await server.setPolicy(policy ?? ["primaryMethods": ["emailOtp"], "federation": ["providers": ["acme"]]])
    }

    @Test func anUnverifiedAddressSignsInToTheAccountFirstThenTheIdentitySignsStraightIn() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            let claims: [String: JSONValue] = [
                "sub": .string("acme-unverified-1"), "email": .string("ada@example.com"), "email_verified": .bool(false),
            ]
            let keyway = try Self.client(server)
            try await Self.signIn(keyway, identifier: "ada@example.com", provider: provider, server: server, claims: claims)
            guard case (let shown, let hint)? = keyway.flow.currentUpdate.prompt?.linkAccount else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            #expect(shown.id == "acme" && shown.label == "Continue with Acme")
            #expect(hint != "ada@example.com" && hint.hasSuffix("@example.com"), "\(hint)")
            #expect(try await server.rowCount("federated_identities") == 0)

            // Continuing signs in to the account with its own method: an email code.
            await keyway.flow.continueLinking()
            guard case _? = keyway.flow.currentUpdate.prompt?.enterCode else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            #expect(try await server.rowCount("federated_identities") == 0)
            await keyway.flow.submitCode(try await server.latestCode(to: "ada@example.com"))
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            let completion = try #require(await keyway.flow.completion)
            #expect(completion.newUser != true)
            let tokens = try await keyway.tokens.exchange(completion)
            #expect(tokens.idToken.email == "ada@example.com")
            #expect(try await server.rowCount("federated_identities WHERE subject = 'acme-unverified-1'") == 1)
            #expect(try await server.rowCount("users") == 1)

            // The identity is linked: the next sign-in with it goes straight through.
            let again = try Self.client(server)
            try await Self.signIn(again, identifier: "ada@example.com", provider: provider, server: server, claims: claims)
            guard case .completed = again.flow.currentUpdate else { throw TestFailure("\(again.flow.currentUpdate)") }
            let second = try await again.tokens.exchange(try #require(await again.flow.completion))
            #expect(second.idToken.subject == tokens.idToken.subject)
            #expect(second.idToken.authenticationMethods == ["fed"])
            #expect(try await server.rowCount("federated_identities") == 1)
        }
        }
    }

    /// A browser session that plays the browser against the stand-in provider for `claims`.
    struct Browser: BrowserSession {
        let provider: StandInOIDCProvider
        let server: TestServer
        let claims: [String: JSONValue]

        func authorize(url: URL, callbackURL: URL) async throws -> URL {
            try await FederationSDKTests.browse(url, provider: provider, server: server, claims: claims)
        }
    }

    @Test func theScreenModelSignsInToLinkThroughTheLinkAccountScreen() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            try await Self.linkWithScreens(provider: provider, server: server)
            #expect(try await server.rowCount("federated_identities WHERE subject = 'acme-screens'") == 1)
        }
        }
    }

    /// The screen model's side of ``theScreenModelSignsInToLinkThroughTheLinkAccountScreen()``.
    @MainActor
    static func linkWithScreens(provider: StandInOIDCProvider, server: TestServer) async throws {
        let model = KeywayScreenModel(keyway: try client(server))
        await model.start(identifier: "ada@example.com", options: FlowStartOptions(redirectURI: redirectURI))
        await model.perform(try #require(model.screen.action("selectMethod:federation:acme")))
        #expect(model.screen.kind == .step(.redirect))
        await model.openBrowser(
            using: Browser(
                provider: provider, server: server,
                claims: [
                    "sub": .string("acme-screens"), "email": .string("ada@example.com"), "email_verified": .bool(false),
                ]))
        #expect(model.screen.kind == .step(.linkAccount), "\(model.screen)")
        #expect(model.screen.title == "Sign in to link your account")
        let link = try #require(model.screen.primaryAction)
        #expect(link.actionName == "continue")
        #expect(model.screen.secondaryActions.contains { $0.actionName == "cancel" })
        #expect(try await server.rowCount("federated_identities") == 0)
        await model.perform(link)
        #expect(model.screen.kind == .step(.enterCode), "\(model.screen)")
        model.values["code"] = try await server.latestCode(to: "ada@example.com")
        await model.perform(try #require(model.screen.primaryAction))
        #expect(model.screen.kind == .completed, "\(model.screen)")
        #expect(model.tokens?.idToken.email == "ada@example.com")
    }

    @Test func anAccountWhoseAddressIsNotVerifiedIsLinkedOnlyWhenItsSignInCompletes() async throws {
        let clock = ManualClock()
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            try await server.execute("UPDATE users SET email_verified = 0 WHERE email = 'ada@example.com'")
            let claims: [String: JSONValue] = [
                "sub": .string("acme-verified-2"), "email": .string("ada@example.com"), "email_verified": .bool(true),
            ]

            // The provider vouches for the address, the account never proved it: sign in to link.
            func linkStep() async throws -> RawFlow {
                let (flow, _) = try await RawFlow.start(server, identifier: "someone@example.net")
                let chosen = try await flow.post("method", ["methodId": "federation:acme"])
                let url = try #require((chosen.json["redirect"] as? [String: Any])?["url"] as? String, "\(chosen.json)")
                let (code, state) = try provider.issueCode(for: claims, authorizationURL: url)
                let step = try await flow.post("federation/callback", ["code": code, "state": state])
                #expect(step.status == 200 && step.json["kind"] as? String == "linkAccount", "\(step.json)")
                let payload = try #require(step.json["linkAccount"] as? [String: Any], "\(step.json)")
                #expect((payload["provider"] as? [String: Any])?["id"] as? String == "acme")
                #expect(payload["identifierHint"] as? String == "a•••@example.com", "\(payload)")
                let actions = (step.json["actions"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                #expect(actions.contains("continue") && actions.contains("cancel"), "\(actions)")
                // A second delivery of the callback: the same step, nothing linked.
                let replay = try await flow.post("federation/callback", ["code": code, "state": state])
                #expect(replay.json["kind"] as? String == "linkAccount", "\(replay.json)")
                #expect(try await server.rowCount("federated_identities") == 0)
                return flow
            }

            // A wrong code, then cancelling: nothing is linked.
            let cancelled = try await linkStep()
            let continued = try await cancelled.post("federation/link", [:])
            #expect(continued.json["kind"] as? String == "enterCode", "\(continued.json)")
            let wrong = try await cancelled.post("code", ["code": "000000"])
            #expect(wrong.status >= 400 && wrong.status < 500, "\(wrong.json)")
            var headers = FederationFlowTests.json
            headers["X-Keyway-Flow-Token"] = cancelled.token
            let cancel = try await server.request("DELETE", "/v1/flows/\(cancelled.id)", headers: headers)
            #expect(cancel.status < 300, "\(cancel.status)")
            #expect(try await server.rowCount("federated_identities") == 0)

            // Continuing with the right code of the account: linked, to that account.
            clock.advance(by: 1)
            let flow = try await linkStep()
            let code = try await flow.post("federation/link", [:])
            #expect(code.json["kind"] as? String == "enterCode", "\(code.json)")
            // The code goes to the account's address, not to the identifier the flow started with.
            #expect((code.json["enterCode"] as? [String: Any])?["destination"] as? String == "a•••@example.com", "\(code.json)")
            #expect(try await server.outbox(to: "someone@example.net").isEmpty)
            let done = try await flow.post("code", ["code": try await server.latestCode(to: "ada@example.com")])
            #expect(done.json["kind"] as? String == "completed", "\(done.json)")
            #expect((done.json["completed"] as? [String: Any])?["newUser"] as? Bool != true)
            #expect(
                try await server.rowCount(
                    "federated_identities f JOIN users u ON u.id = f.user_id WHERE u.email = 'ada@example.com' AND f.subject = 'acme-verified-2'"
                ) == 1)
            // `continue` is not an answer to another step.
            let late = try await flow.post("federation/link", [:])
            #expect(late.status >= 400 && late.status < 500, "\(late.json)")
            #expect(try await server.rowCount("federated_identities") == 1)
        }
        }
    }

    @Test func anAddressProvedAfterAProviderSignedUpWithItHoldsThatProviderUntilTheOwnerKeepsIt() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(
                server, provider: provider,
                policy: [
                    "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "signup", "accountManage"],
                    "federation": ["providers": ["acme"]],
                ])
            let victim = "victim@example.com"
            // Someone signs up through a provider that does not verify addresses, with another
            // person's address, and can sign in that way again.
            func throughTheProvider() async throws -> (status: Int, json: [String: Any]) {
                let (flow, _) = try await RawFlow.start(server, identifier: victim)
                let chosen = try await flow.post("method", ["methodId": "federation:acme"])
                let url = try #require((chosen.json["redirect"] as? [String: Any])?["url"] as? String, "\(chosen.json)")
                let (code, state) = try provider.issueCode(
                    for: ["sub": .string("acme-mallory"), "email": .string(victim), "email_verified": .bool(false)],
                    authorizationURL: url)
                return try await flow.post("federation/callback", ["code": code, "state": state])
            }
            let signedUp = try await throughTheProvider()
            #expect((signedUp.json["completed"] as? [String: Any])?["newUser"] as? Bool == true, "\(signedUp.json)")
            #expect(try await throughTheProvider().json["kind"] as? String == "completed")

            // The address's owner signs in with a code sent to it: the address is proved, the
            // provider's identity held, and the owner told.
            let (owner, _) = try await RawFlow.start(server, identifier: victim)
            let codeStep = try await owner.post("method", ["methodId": "emailOtp"])
            #expect(codeStep.json["kind"] as? String == "enterCode", "\(codeStep.json)")
            let done = try await owner.post("code", ["code": try await server.latestCode(to: victim)])
            let authCode = try #require((done.json["completed"] as? [String: Any])?["authCode"] as? String, "\(done.json)")
            #expect(try await server.rowCount("users WHERE email = 'victim@example.com' AND email_verified = 1") == 1)
            #expect(try await server.rowCount("federated_identities WHERE held_since IS NOT NULL") == 1)
            let notice = try #require(try await server.outbox(to: victim).last)
            #expect(notice.body.contains("Continue with Acme") && notice.body.contains("paused"), "\(notice.body)")

            // The provider's sign-in no longer gets in.
            let refused = try await throughTheProvider()
            #expect(refused.status == 403 && refused.json["code"] as? String == "identity_held", "\(refused.json)")

            // Account management shows the identity held and asks the owner to keep or remove it;
            // once kept, the provider signs in again.
            let tokens = try await server.token([
                "grant_type": "authorization_code", "code": authCode, "client_id": TestServer.configId,
                "code_verifier": RawFlow.verifier,
            ])
            let accessToken = try #require(tokens.json["access_token"] as? String, "\(tokens.json)")
            let start = try await server.request(
                "POST", "/v1/flows",
                headers: FederationFlowTests.json.merging(["Authorization": "Bearer \(accessToken)"]) { $1 },
                body: try JSONSerialization.data(withJSONObject: [
                    "flowType": "accountManage", "identifier": victim,
                    "codeChallenge": PKCE.challenge(for: RawFlow.verifier), "codeChallengeMethod": "S256",
                ]))
            let step = (try? JSONSerialization.jsonObject(with: start.body)) as? [String: Any] ?? [:]
            let manage = RawFlow(
                server: server, id: try #require(step["flowId"] as? String, "\(step)"),
                token: try #require(step["flowToken"] as? String))
            let linked = try #require((step["manageAccount"] as? [String: Any])?["linkedIdentities"] as? [[String: Any]])
            #expect(linked.first?["heldSince"] != nil, "\(linked)")
            let identityId = try #require(linked.first?["id"] as? String)
            let actions = (step["actions"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
            #expect(actions.contains("keepIdentity") && actions.contains("unlinkIdentity"), "\(actions)")
            // An identity that is not held cannot be "kept".
            let notHeld = try await manage.post("manage/keepIdentity", ["identityId": "fid_nope"])
            #expect(notHeld.status == 400, "\(notHeld.json)")
            // Keeping asks for a fresh verification first (a code to the address), and keeps
            // nothing until it is given.
            let verify = try await manage.post("manage/keepIdentity", ["identityId": identityId])
            #expect(verify.json["kind"] as? String == "enterCode", "\(verify.json)")
            #expect(try await server.rowCount("federated_identities WHERE held_since IS NULL") == 0)
            let kept = try await manage.post("code", ["code": try await server.latestCode(to: victim)])
            #expect(kept.json["kind"] as? String == "manageAccount", "\(kept.json)")
            let after = try #require((kept.json["manageAccount"] as? [String: Any])?["linkedIdentities"] as? [[String: Any]])
            #expect(after.first?["heldSince"] == nil, "\(after)")
            #expect(try await server.rowCount("federated_identities WHERE held_since IS NULL") == 1)
            #expect(try await throughTheProvider().json["kind"] as? String == "completed")
        }
        }
    }

    @Test func aNewIdentitySignsUpWhenTheApplicationAllowsIt() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(
                server, provider: provider,
                policy: [
                    "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "signup"],
                    "federation": ["providers": ["acme"]],
                ])
            // A verified address: the account is created verified, the identity linked, the name kept.
            let keyway = try Self.client(server)
            try await Self.signIn(
                keyway, identifier: "bob@example.com", provider: provider, server: server,
                claims: [
                    "sub": .string("acme-bob"), "email": .string("Bob@example.com"), "email_verified": .bool(true),
                    "name": .string("Bob Builder"),
                ])
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            let completion = try #require(await keyway.flow.completion)
            #expect(completion.newUser == true)
            let tokens = try await keyway.tokens.exchange(completion)
            #expect(tokens.idToken.email == "bob@example.com")
            #expect(tokens.idToken.authenticationMethods == ["fed"])
            #expect(try await server.rowCount("users WHERE email = 'bob@example.com' AND email_verified = 1") == 1)
            #expect(
                try await server.rowCount(
                    "federated_identities f JOIN users u ON u.id = f.user_id WHERE u.email = 'bob@example.com' AND f.subject = 'acme-bob'"
                ) == 1)
            #expect(try await server.rowCount("user_profiles WHERE data LIKE '%Bob Builder%'") == 1)

            // The same identity later signs in to that account, not a new one.
            let again = try Self.client(server)
            try await Self.signIn(
                again, identifier: "bob@example.com", provider: provider, server: server,
                claims: ["sub": .string("acme-bob"), "email": .string("bob@example.com"), "email_verified": .bool(true)])
            let second = try #require(await again.flow.completion, "\(again.flow.currentUpdate)")
            #expect(second.newUser != true)
            #expect(try await again.tokens.exchange(second).idToken.subject == tokens.idToken.subject)

            // An address the provider did not verify is kept unverified.
            let (flow, _) = try await RawFlow.start(server, identifier: "carol@example.com")
            let chosen = try await flow.post("method", ["methodId": "federation:acme"])
            let url = try #require((chosen.json["redirect"] as? [String: Any])?["url"] as? String, "\(chosen.json)")
            let (code, state) = try provider.issueCode(
                for: ["sub": .string("acme-carol"), "email": .string("carol@example.com"), "email_verified": .bool(false)],
                authorizationURL: url)
            let done = try await flow.post("federation/callback", ["code": code, "state": state])
            #expect(done.json["kind"] as? String == "completed", "\(done.json)")
            #expect((done.json["completed"] as? [String: Any])?["newUser"] as? Bool == true)
            #expect(try await server.rowCount("users WHERE email = 'carol@example.com' AND email_verified = 0") == 1)
            #expect(try await server.rowCount("federated_identities") == 2)
            #expect(try await server.rowCount("users") == 3)
        }
        }
    }

    @Test func aSignUpThroughAProviderFillsTheFormsNameInAndNeedsNoInvitationItCannotHave() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(
                server, provider: provider,
                policy: [
                    "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "signup"],
                    "signup": [
                        "profileFields": [["name": "displayName", "kind": "text", "label": "Name", "required": true]]
                    ],
                    "federation": ["providers": ["acme"]],
                ])
            let keyway = try Self.client(server)
            try await Self.signIn(
                keyway, identifier: "eve@example.com", provider: provider, server: server,
                claims: [
                    "sub": .string("acme-eve"), "email": .string("eve@example.com"), "email_verified": .bool(true),
                    "name": .string("Eve Example"),
                ])
            guard case (_, _, let fields)? = keyway.flow.currentUpdate.prompt?.form else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            #expect(fields.first { $0.name == "displayName" }?.value == "Eve Example")
            // Nothing exists before the sign-up completes.
            #expect(try await server.rowCount("users WHERE email = 'eve@example.com'") == 0)
            await keyway.flow.submitForm(["displayName": "Eve"])
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            #expect(await keyway.flow.completion?.newUser == true)
            #expect(try await server.rowCount("users WHERE email = 'eve@example.com' AND email_verified = 1") == 1)
            #expect(try await server.rowCount("federated_identities WHERE subject = 'acme-eve'") == 1)

            // Where sign-ups need an invitation, a provider's flow (which carries none) cannot sign up.
            try await server.setPolicy([
                "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "signup"],
                "signup": ["requireInviteCode": true], "federation": ["providers": ["acme"]],
            ])
            let invited = try Self.client(server)
            try await Self.signIn(
                invited, identifier: "fay@example.com", provider: provider, server: server,
                claims: ["sub": .string("acme-fay"), "email": .string("fay@example.com"), "email_verified": .bool(true)])
            // Back at the choice of method, with the reason.
            guard case .prompt(let context, let prompt) = invited.flow.currentUpdate, prompt.kind == .selectMethod,
                context.messages.contains(where: { $0.code == "signup_not_allowed" })
            else { throw TestFailure("\(invited.flow.currentUpdate)") }
            #expect(try await server.rowCount("users WHERE email = 'fay@example.com'") == 0)
            #expect(try await server.rowCount("federated_identities WHERE subject = 'acme-fay'") == 0)
        }
        }
    }

    @Test func aNewIdentityIsRefusedWhereTheApplicationCreatesNoAccounts() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            try await server.execute("UPDATE applications SET auto_create_users = 0")
            let (flow, _) = try await RawFlow.start(server, identifier: "dan@example.com")
            let chosen = try await flow.post("method", ["methodId": "federation:acme"])
            let url = try #require((chosen.json["redirect"] as? [String: Any])?["url"] as? String, "\(chosen.json)")
            let (code, state) = try provider.issueCode(
                for: ["sub": .string("acme-dan"), "email": .string("dan@example.com"), "email_verified": .bool(true)],
                authorizationURL: url)
            let refused = try await flow.post("federation/callback", ["code": code, "state": state])
            #expect(refused.status == 403 && refused.json["code"] as? String == "signup_not_allowed", "\(refused.json)")
            #expect((refused.json["detail"] as? String)?.contains("does not create accounts") == true, "\(refused.json)")
            #expect(try await server.rowCount("users") == 1)
            #expect(try await server.rowCount("federated_identities") == 0)
            // The flow offers its methods again.
            let now = try await flow.get()
            #expect(now["kind"] as? String == "selectMethod", "\(now)")
        }
        }
    }

    @Test func theSecondFactorIsAskedAfterTheProvider() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(
                server, provider: provider,
                policy: [
                    "primaryMethods": ["emailOtp"], "mfaMethods": ["emailOtp", "totp"], "mfaMode": "required",
                    "federation": ["providers": ["acme"]],
                ])
            let keyway = try Self.client(server)
            try await Self.signIn(
                keyway, identifier: "ada@example.com", provider: provider, server: server, claims: FederationSDKTests.ada)
            guard case _? = keyway.flow.currentUpdate.prompt?.enterCode else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            // The identity was linked by the verified address; the session waits for the second factor.
            #expect(try await server.rowCount("federated_identities") == 1)
            #expect(await keyway.flow.completion == nil)
            await keyway.flow.submitCode(try await server.latestCode(to: "ada@example.com"))
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            let tokens = try await keyway.tokens.exchange(try #require(await keyway.flow.completion))
            #expect(tokens.idToken.authenticationMethods == ["fed", "otp", "mfa"])
        }
        }
    }

    @Test func signingInToLinkAsksTheAccountsSecondFactorAndLinksOnlyOnceItIsGiven() async throws {
        let clock = ManualClock()
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            try await prepare(
                server, provider: provider,
                policy: [
                    "primaryMethods": ["emailOtp"], "mfaMethods": ["totp"], "mfaMode": "required",
                    "federation": ["providers": ["acme"]],
                ])
            let claims: [String: JSONValue] = [
                "sub": .string("acme-mfa-1"), "email": .string("ada@example.com"), "email_verified": .bool(false),
            ]
            let keyway = try Self.client(server)
            try await Self.signIn(keyway, identifier: "ada@example.com", provider: provider, server: server, claims: claims)
            guard case _? = keyway.flow.currentUpdate.prompt?.linkAccount else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            await keyway.flow.continueLinking()
            await keyway.flow.submitCode(try await server.latestCode(to: "ada@example.com"))
            // The account's own sign-in goes on: the policy's second factor, set up here.
            let setup = try #require(keyway.flow.currentUpdate.totpSetup, "\(keyway.flow.currentUpdate)")
            #expect(try await server.rowCount("federated_identities") == 0)
            await keyway.flow.submitTotp("000000")
            #expect(try await server.rowCount("federated_identities") == 0)
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: setup.secret, at: clock.now()))
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            let completion = try #require(await keyway.flow.completion)
            #expect(try await keyway.tokens.exchange(completion).idToken.authenticationMethods == ["otp", "mfa"])
            #expect(try await server.rowCount("federated_identities WHERE subject = 'acme-mfa-1'") == 1)

            // Signing in with the linked identity: the provider, then the authenticator.
            clock.advance(by: 30)
            let again = try Self.client(server)
            try await Self.signIn(again, identifier: "ada@example.com", provider: provider, server: server, claims: claims)
            #expect(again.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor), "\(again.flow.currentUpdate)")
            await again.flow.submitTotp(TestAuthenticator.code(secret: setup.secret, at: clock.now()))
            guard case .completed = again.flow.currentUpdate else { throw TestFailure("\(again.flow.currentUpdate)") }
            let second = try #require(await again.flow.completion)
            #expect(try await again.tokens.exchange(second).idToken.authenticationMethods == ["fed", "otp", "mfa"])
        }
        }
    }

    @Test func signingInToLinkWithAnotherProviderMustProveThatAccount() async throws {
        let clock = ManualClock()
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(StandInOIDCProvider().start()) { beta in
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            beta.follow(clock)
            let application = try await server.admin("GET", "/admin/applications/\(TestServer.configId)")
            let projectId = try #require(application.json["projectId"] as? String)
            let added = try await server.admin(
                "POST", "/admin/projects/\(projectId)/identity-providers",
                ["id": "beta", "issuer": beta.issuer, "clientId": beta.clientId, "clientSecret": beta.clientSecret,
                 "label": "Continue with Beta"])
            #expect(added.status == 201, "\(added.json)")
            try await server.setPolicy(["primaryMethods": ["emailOtp"], "federation": ["providers": ["acme", "beta"]]])

            // Bob's account, signed up with his Beta identity.
            let bob: [String: JSONValue] = [
                "sub": .string("beta-bob"), "email": .string("bob@example.com"), "email_verified": .bool(true),
            ]
            let bobKeyway = try Self.client(server)
            try await Self.signIn(
                bobKeyway, identifier: "bob@example.com", provider: beta, server: server, claims: bob, providerId: "beta")
            guard case .completed = bobKeyway.flow.currentUpdate else { throw TestFailure("\(bobKeyway.flow.currentUpdate)") }

            // Someone signs in to link an Acme identity to Ada's account, and offers Bob's Beta identity.
            let keyway = try Self.client(server)
            try await Self.signIn(
                keyway, identifier: "ada@example.com", provider: provider, server: server,
                claims: ["sub": .string("acme-x"), "email": .string("ada@example.com"), "email_verified": .bool(false)])
            guard case _? = keyway.flow.currentUpdate.prompt?.linkAccount else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            await keyway.flow.continueLinking()
            guard case (let methods, _, _)? = keyway.flow.currentUpdate.prompt?.selectMethod else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            // The provider being linked is not offered again.
            #expect(methods.map(\.id) == ["emailOtp", "federation:beta"])
            await keyway.flow.selectMethod(id: "federation:beta")
            guard case (let url, _, _)? = keyway.flow.currentUpdate.prompt?.redirect else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            let returned = try await FederationSDKTests.browse(url, provider: beta, server: server, claims: bob)
            await keyway.flow.oauthCallback(url: returned)
            // The flow is back at the choice, which the SDK shows with the reason.
            guard case .prompt(let context, let prompt) = keyway.flow.currentUpdate, prompt.kind == .selectMethod,
                context.messages.contains(where: { $0.code == "federation_failed" })
            else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            #expect(try await server.rowCount("federated_identities WHERE subject = 'acme-x'") == 0)

            // Ada's own email code links it to Ada's account.
            clock.advance(by: 1)
            await keyway.flow.selectMethod(id: "emailOtp")
            await keyway.flow.submitCode(try await server.latestCode(to: "ada@example.com"))
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            #expect(
                try await server.rowCount(
                    "federated_identities f JOIN users u ON u.id = f.user_id WHERE u.email = 'ada@example.com' AND f.subject = 'acme-x'"
                ) == 1)
        }
        }
        }
    }

    @Test func aProviderThatIsDownLeavesTheOtherMethods() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await FederationFlowTests().prepare(server, provider: provider)
            let (flow, _) = try await RawFlow.start(server, identifier: "ada@example.com")
            let unavailable = try await flow.post("method", ["methodId": "federation:down"])
            #expect(unavailable.status == 503, "\(unavailable.json)")
            #expect(unavailable.json["code"] as? String == "method_unavailable")
            #expect(unavailable.json["retryable"] as? Bool == true, "\(unavailable.json)")
            let fresh = try await flow.get()
            let methods = ((fresh["selectMethod"] as? [String: Any])?["methods"] as? [[String: Any]] ?? [])
                .compactMap { $0["id"] as? String }
            #expect(methods == ["emailOtp", "federation:acme", "federation:down"], "\(fresh)")
            let code = try await flow.post("method", ["methodId": "emailOtp"])
            #expect(code.json["kind"] as? String == "enterCode", "\(code.json)")
            let done = try await flow.post("code", ["code": try await server.latestCode(to: "ada@example.com")])
            #expect(done.json["kind"] as? String == "completed", "\(done.json)")
        }
        }
    }

    @Test func aRotatedKeyIsFetchedAgainOnItsUnknownKid() async throws {
        let clock = ManualClock()
        try await withTestServer(StandInOIDCProvider(kid: "p1").start()) { provider in
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            let first = try Self.client(server)
            try await Self.signIn(first, identifier: "ada@example.com", provider: provider, server: server, claims: FederationSDKTests.ada)
            guard case .completed = first.flow.currentUpdate else { throw TestFailure("\(first.flow.currentUpdate)") }
            #expect(provider.keySetRequestCount == 1)

            // The same key again: the cached set serves.
            let cached = try Self.client(server)
            try await Self.signIn(cached, identifier: "ada@example.com", provider: provider, server: server, claims: FederationSDKTests.ada)
            guard case .completed = cached.flow.currentUpdate else { throw TestFailure("\(cached.flow.currentUpdate)") }
            #expect(provider.keySetRequestCount == 1)

            // The provider rotates its key: the token's unknown kid fetches the set again.
            provider.rotateKey(kid: "p2")
            clock.advance(by: 31)
            let rotated = try Self.client(server)
            try await Self.signIn(rotated, identifier: "ada@example.com", provider: provider, server: server, claims: FederationSDKTests.ada)
            guard case .completed = rotated.flow.currentUpdate else { throw TestFailure("\(rotated.flow.currentUpdate)") }
            #expect(provider.keySetRequestCount == 2)
        }
        }
    }

    @Test func theGooglePresetAcceptsBothSpellingsOfTheIssuer() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            let application = try await server.admin("GET", "/admin/applications/\(TestServer.configId)")
            let projectId = try #require(application.json["projectId"] as? String)
            let added = try await server.admin(
                "POST", "/admin/projects/\(projectId)/identity-providers",
                ["id": "google", "preset": "google", "issuer": provider.issuer, "clientId": provider.clientId,
                 "clientSecret": provider.clientSecret, "label": "Continue with Google"])
            #expect(added.status == 201, "\(added.json)")
            try await server.setPolicy(["primaryMethods": ["emailOtp"], "federation": ["providers": ["google", "acme"]]])

            // Google names itself with or without the scheme; another issuer is refused.
            let bare = String(provider.issuer.dropFirst("http://".count))
            for (iss, accepted) in [(bare, true), (provider.issuer, true), ("https://accounts.example.org", false)] {
                let keyway = try Self.client(server)
                var claims = FederationSDKTests.ada
                claims["iss"] = .string(iss)
                try await Self.signIn(
                    keyway, identifier: "ada@example.com", provider: provider, server: server, claims: claims,
                    providerId: "google", throughTheBrowser: accepted)
                if accepted {
                    guard case .completed = keyway.flow.currentUpdate else {
                        throw TestFailure("\(iss): \(keyway.flow.currentUpdate)")
                    }
                } else {
                    guard Self.isBackAtTheChoice(keyway.flow.currentUpdate, because: "federation_failed") else {
                        throw TestFailure("\(iss): \(keyway.flow.currentUpdate)")
                    }
                }
            }
            // One identity, whichever spelling it came with.
            #expect(try await server.rowCount("federated_identities") == 1)

            // The generic preset accepts only the issuer as configured.
            let keyway = try Self.client(server)
            var claims = FederationSDKTests.ada
            claims["iss"] = .string(bare)
            try await Self.signIn(
                keyway, identifier: "ada@example.com", provider: provider, server: server, claims: claims,
                throughTheBrowser: false)
            guard Self.isBackAtTheChoice(keyway.flow.currentUpdate, because: "federation_failed") else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
        }
        }
    }

    /// Whether `update` is the choice of method shown again with the refusal `code` among its messages.
    static func isBackAtTheChoice(_ update: FlowUpdate, because code: String) -> Bool {
        guard case .prompt(let context, let prompt) = update, prompt.kind == .selectMethod else { return false }
        return context.messages.contains { $0.code == code && $0.level == "error" }
    }
}
