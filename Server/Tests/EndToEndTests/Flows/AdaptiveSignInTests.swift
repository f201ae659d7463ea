import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// A server with the admin credential, its clock and an SDK pointed at it.
struct AdaptiveHarness: ScopedTestServer {
    let clock: ManualClock
    let server: TestServer

    static func start(
        policy: [String: Any], limits: FlowLimits = FlowLimits(), passwords: (any PasswordHashing)? = nil,
        appAttestRoots: [String] = [], database: DatabaseLocation? = nil, clock: ManualClock = ManualClock(), port: Int = 0,
        issuerHost: String? = nil
    ) async throws -> AdaptiveHarness {
        let server = try await TestServer.start(
            database: database, port: port, clock: clock, limits: limits, adminToken: testAdminToken, passwords: passwords,
            appAttestRoots: appAttestRoots, issuerHost: issuerHost)
        return try await server.settingUp { server in
            try await server.setPolicy(policy)
            return AdaptiveHarness(clock: clock, server: server)
        }
    }

    func stop() async { await server.stop() }

    func sdk(_ options: (inout KeywayOptions) -> Void = { _ in }) throws -> KeywayClient {
        var keywayOptions = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock)
        options(&keywayOptions)
        return try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: keywayOptions)
    }

    /// Signs up `email` with a password and, where the policy asks, the profile form.
    func signUp(_ keyway: KeywayClient, email: String, password: String) async throws {
        await keyway.flow.start(flowType: .signup, identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        if case _? = keyway.flow.currentUpdate.prompt?.form {
            await keyway.flow.submitForm(["displayName": "Test User"])
        }
        guard case (.create, _)? = keyway.flow.currentUpdate.prompt?.enterPassword else {
            throw TestFailure("Expected the password to choose, got \(keyway.flow.currentUpdate)")
        }
        await keyway.flow.submitPassword(password)
    }
}

@Suite("Adaptive sign-in: primary methods, MFA modes, authenticators")
struct AdaptiveSignInTests {
    static var allPrimary: [String: Any] {
        ["primaryMethods": ["emailOtp", "smsOtp", "password"], "flowTypes": ["signin", "signup", "accountManage"]]
    }

    @Test func passwordSignUpThenPasswordSignInWithTheSameAnswerForUnknownUsers() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.allPrimary)) { harness in
            let keyway = try harness.sdk()
            try await harness.signUp(keyway, email: "pat@example.com", password: "violet-harbor-92")
            let created = try #require(keyway.flow.currentUpdate.completion)
            _ = try await keyway.tokens.exchange(authCode: created.authCode, codeVerifier: try #require(created.codeVerifier))

            // Sign-in offers the methods the identifier fits: an email address gets email codes and the password.
            await keyway.flow.start(flowType: .signin, identifier: "pat@example.com")
            let choice = try #require(keyway.flow.currentUpdate.methodChoice)
            #expect(choice.methods.map(\.type) == [.emailOtp, .password])
            #expect(choice.purpose == .primary)
            #expect(choice.methods.first?.destination == "p•••@example.com")
            await keyway.flow.selectMethod(id: "password")
            #expect(keyway.flow.currentUpdate.prompt == .enterPassword(purpose: .signIn, minimumLength: nil))
            await keyway.flow.submitPassword("wrong-password-1")
            let wrong = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(wrong.code == .invalidCredentials)
            #expect(wrong.action == .retryInput)
            #expect(wrong.details?.attemptsRemaining == 4)
            await keyway.flow.submitPassword("violet-harbor-92")
            let signedIn = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: signedIn.authCode, codeVerifier: try #require(signedIn.codeVerifier))
            #expect(tokens.idToken.authenticationMethods == ["pwd"])

            // An unknown address gets the same steps and the same refusal.
            await keyway.flow.start(flowType: .signin, identifier: "nobody@example.com")
            #expect(keyway.flow.currentUpdate.methodChoice?.methods.map(\.type) == [.emailOtp, .password])
            await keyway.flow.selectMethod(id: "password")
            await keyway.flow.submitPassword("violet-harbor-92")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCredentials)
            // Email codes: the same step; the address gets a notice without a code instead.
            await keyway.flow.start(flowType: .signin, identifier: "nobody@example.com")
            await keyway.flow.selectMethod(id: "emailOtp")
            #expect(keyway.flow.currentUpdate.enterCode?.destination == "n•••@example.com")
            let notice = try #require(try await harness.server.outbox(to: "nobody@example.com").last)
            #expect(notice.code.isEmpty)
            #expect(notice.body.contains("no account uses it"))
            await keyway.flow.submitCode("123456")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCode)
            #expect(try await harness.server.rowCount("users") == 1)
        }
    }

    @Test func weakPasswordsAreRefusedFieldByField() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.allPrimary)) { harness in
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signup, identifier: "weak@example.com")
            await keyway.flow.submitCode(try await harness.server.latestCode(to: "weak@example.com"))
            for weak in ["short", "password123"] {
                await keyway.flow.submitPassword(weak)
                let error = try #require(keyway.flow.currentUpdate.errorInfo)
                #expect(error.code == .weakPassword)
                #expect(error.action == .retryInput)
                #expect(error.details?.invalidFields?.first?.name == "password")
            }
            await keyway.flow.submitPassword("a-much-better-passphrase")
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func smsCodesSignInByPhoneAndTheIdentifierPicksTheMethodAutomatically() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.allPrimary)) { harness in
            // A phone number signs up with an SMS code.
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signup, identifier: "+1 (415) 555-0123")
            let prompt = try #require(keyway.flow.currentUpdate.enterCode)
            #expect(prompt.channel == .sms)
            #expect(prompt.destination == "+1••••••••23")
            await keyway.flow.submitCode(try await harness.server.latestCode(to: "+14155550123"))
            await keyway.flow.submitPassword("phone-user-passphrase")
            let created = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: created.authCode, codeVerifier: try #require(created.codeVerifier))
            #expect(tokens.idToken.email == nil)

            // With automatic selection a phone number goes straight to its SMS code…
            let automatic = try harness.sdk { $0.primaryMethodSelectionPolicy = .automaticFromIdentifier }
            await automatic.flow.start(flowType: .signin, identifier: "+14155550123")
            #expect(automatic.flow.currentUpdate.enterCode?.channel == .sms)
            await automatic.flow.submitCode(try await harness.server.latestCode(to: "+14155550123"))
            let bySms = try #require(automatic.flow.currentUpdate.completion)
            let smsTokens = try await automatic.tokens.exchange(authCode: bySms.authCode, codeVerifier: try #require(bySms.codeVerifier))
            #expect(smsTokens.idToken.subject == tokens.idToken.subject)
            #expect(smsTokens.idToken.authenticationMethods == ["sms"])

            // …and an email address to its email code; manual selection always shows the choice.
            await automatic.flow.start(flowType: .signin, identifier: "auto@example.com")
            #expect(automatic.flow.currentUpdate.enterCode?.channel == .email)
            await keyway.flow.start(flowType: .signin, identifier: "+14155550123")
            #expect(keyway.flow.currentUpdate.methodChoice?.methods.map(\.type) == [.smsOtp, .password])
        }
    }

    @Test func requiredMFAEnrolsAnAuthenticatorThenAsksForItAndRefusesAReplayedCode() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["totp"], "mfaMode": "required",
            "flowTypes": ["signin", "accountManage"],
        ])) { harness in
            let keyway = try harness.sdk()
            let server = harness.server
            await keyway.flow.start(flowType: .signin, identifier: "mfa@example.com")
            #expect(keyway.flow.currentUpdate.errorInfo == nil)
            // The dev application creates the account on a first verified sign-in; MFA then walks
            // the user through the authenticator set-up before completing.
            await keyway.flow.submitCode(try await server.latestCode(to: "mfa@example.com"))
            let setup = try #require(keyway.flow.currentUpdate.totpSetup)
            #expect(keyway.flow.currentUpdate.promptContext?.stepInfo?.label == "Set up your authenticator")
            #expect(setup.otpauthUrl.hasPrefix("otpauth://totp/"))
            #expect(setup.otpauthUrl.contains("secret=\(setup.secret)"))
            #expect(TestAuthenticator.base32Decode(setup.secret).count >= 20)
            await keyway.flow.submitTotp("000000")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCode)
            let firstCode = TestAuthenticator.code(secret: setup.secret, at: harness.clock.now())
            await keyway.flow.submitTotp(firstCode)
            let enrolled = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: enrolled.authCode, codeVerifier: try #require(enrolled.codeVerifier))
            #expect(tokens.idToken.authenticationMethods == ["otp", "mfa"])
            // The secret is sealed at rest.
            #expect(try await server.rowCount("users WHERE totp_secret LIKE 'v1.%'") == 1)

            // The next sign-in asks for the authenticator after the email code.
            await keyway.flow.start(flowType: .signin, identifier: "mfa@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "mfa@example.com"))
            #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            #expect(keyway.flow.currentUpdate.promptContext?.stepInfo?.label == "Second factor")
            // The code used at enrolment is refused: a replay.
            await keyway.flow.submitTotp(firstCode)
            let replay = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(replay.code == .codeReplayed)
            #expect(replay.action == .retryInput)
            // The next period's code is accepted (±1 period).
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: setup.secret, at: harness.clock.now(), offsetSteps: 1))
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func optionalMFAIsOfferedAndSkippableUnlessTheRiskIsElevated() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["totp"], "mfaMode": "optional", "flowTypes": ["signin"],
        ])) { harness in
            let keyway = try harness.sdk()
            let server = harness.server
            await keyway.flow.start(flowType: .signin, identifier: "opt@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "opt@example.com"))
            let offer = try #require(keyway.flow.currentUpdate.methodChoice)
            #expect(offer.purpose == .enrolment)
            #expect(offer.skippable)
            await keyway.flow.skip()
            let skipped = try #require(keyway.flow.currentUpdate.completion)
            let first = try await keyway.tokens.exchange(authCode: skipped.authCode, codeVerifier: try #require(skipped.codeVerifier))
            #expect(first.idToken.authenticationMethods == ["otp"])

            // Set up the authenticator now.
            await keyway.flow.start(flowType: .signin, identifier: "opt@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "opt@example.com"))
            await keyway.flow.selectMethod(id: "totp")
            let secret = try #require(keyway.flow.currentUpdate.totpSetup).secret
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            #expect(keyway.flow.currentUpdate.completion != nil)

            // With the authenticator set up, it is offered (and skippable) after the email code.
            harness.clock.advance(by: 60)
            await keyway.flow.start(flowType: .signin, identifier: "opt@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "opt@example.com"))
            let second = try #require(keyway.flow.currentUpdate.methodChoice)
            #expect(second.purpose == .secondFactor)
            #expect(second.skippable)
            #expect(keyway.flow.currentUpdate.promptContext?.risk == nil)

            // Three wrong codes make the next attempt risky: the second factor can no longer be skipped.
            harness.clock.advance(by: 60)
            await keyway.flow.start(flowType: .signin, identifier: "opt@example.com")
            for _ in 0..<3 { await keyway.flow.submitCode("000000") }
            await keyway.flow.submitCode(try await server.latestCode(to: "opt@example.com"))
            let risky = try #require(keyway.flow.currentUpdate.promptContext?.risk)
            #expect(risky.level == "medium")
            #expect(risky.reasons == ["recentFailures"])
            #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func aSignInFromANewAddressMustSetUpTheOptionalSecondFactor() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["totp"], "mfaMode": "optional", "flowTypes": ["signin"],
        ])) { harness in
            let keyway = try harness.sdk()
            let server = harness.server
            await keyway.flow.start(flowType: .signin, identifier: "travel@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "travel@example.com"))
            #expect(keyway.flow.currentUpdate.methodChoice?.skippable == true)
            await keyway.flow.skip()
            #expect(keyway.flow.currentUpdate.completion != nil)

            // Every earlier session came from elsewhere: this address is new for the user.
            try await server.execute("UPDATE sessions SET client_address_hash = 'elsewhere'")
            await keyway.flow.start(flowType: .signin, identifier: "travel@example.com")
            #expect(keyway.flow.currentUpdate.promptContext?.risk == nil)
            await keyway.flow.submitCode(try await server.latestCode(to: "travel@example.com"))
            let risk = try #require(keyway.flow.currentUpdate.promptContext?.risk)
            #expect(risk.level == "medium")
            #expect(risk.reasons == ["newAddress"])
            #expect(keyway.flow.currentUpdate.promptContext?.messages.contains { $0.code == "risk" } == true)
            // The only second factor must now be set up: no skip.
            let secret = try #require(keyway.flow.currentUpdate.totpSetup).secret
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func offMFACompletesAfterThePrimaryMethodAndTotpCanBeThePrimaryMethod() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp", "totp"], "mfaMethods": [], "mfaMode": "off",
            "flowTypes": ["signin", "accountManage"],
        ])) { harness in
            let keyway = try harness.sdk()
            let server = harness.server
            await keyway.flow.start(flowType: .signin, identifier: "primary@example.com")
            await keyway.flow.selectMethod(id: "emailOtp")
            await keyway.flow.submitCode(try await server.latestCode(to: "primary@example.com"))
            let first = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: first.authCode, codeVerifier: try #require(first.codeVerifier))
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            try await session.save(tokens)

            // Set up the authenticator through account management, then sign in with it alone.
            try await session.manageAccount()
            await keyway.flow.perform(operation: "setupTotp")
            let secret = try #require(keyway.flow.currentUpdate.totpSetup).secret
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            guard case (let methods, _)? = keyway.flow.currentUpdate.prompt?.manageAccount else {
                throw TestFailure("Expected the account overview, got \(keyway.flow.currentUpdate)")
            }
            #expect(methods.map(\.type).contains(.totp))
            // Finishing issues a code (new tokens): an access token alone is not enough for that,
            // the user confirms who they are first.
            await keyway.flow.perform(operation: "finish")
            let confirm = try #require(keyway.flow.currentUpdate.methodChoice)
            #expect(confirm.purpose == .reverification)
            await keyway.flow.selectMethod(id: "totp")
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now().addingTimeInterval(30)))
            #expect(keyway.flow.currentUpdate.completion != nil)

            // Replacing the authenticator weakens the account until the new one works: it needs the
            // current one (or an email code) first, then the new secret replaces the old.
            harness.clock.advance(by: 60)
            try await session.manageAccount()
            await keyway.flow.perform(operation: "setupTotp")
            let verify = try #require(keyway.flow.currentUpdate.methodChoice)
            #expect(verify.purpose == .reverification)
            #expect(verify.methods.map(\.type) == [.emailOtp, .totp])
            await keyway.flow.selectMethod(id: "totp")
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            let replacement = try #require(keyway.flow.currentUpdate.totpSetup).secret
            #expect(replacement != secret)
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: replacement, at: harness.clock.now()))
            await keyway.flow.perform(operation: "finish")
            #expect(keyway.flow.currentUpdate.completion != nil)

            harness.clock.advance(by: 60)
            await keyway.flow.start(flowType: .signin, identifier: "primary@example.com")
            await keyway.flow.selectMethod(id: "totp")
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCode)
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: replacement, at: harness.clock.now()))
            let byTotp = try #require(keyway.flow.currentUpdate.completion)
            let again = try await keyway.tokens.exchange(authCode: byTotp.authCode, codeVerifier: try #require(byTotp.codeVerifier))
            #expect(again.idToken.subject == tokens.idToken.subject)
            #expect(again.idToken.authenticationMethods == ["otp"])
        }
    }
}
