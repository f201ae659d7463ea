import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import KeywayUI
import Testing

/// "Forgot password?": from a password sign-in step, a code to the identifier, then a new
/// password; the sign-in goes on, the account's other sessions end, and an identifier without an
/// account sees the same steps.
@Suite("Password reset through a code")
struct PasswordResetTests {
    static var policy: [String: Any] { ["primaryMethods": ["emailOtp", "password"], "flowTypes": ["signin", "signup"]] }

    /// Signs `email` up with `password` and answers the sign-up's tokens.
    static func signUp(_ harness: AdaptiveHarness, _ keyway: KeywayClient, email: String, password: String) async throws
        -> TokenSet
    {
        try await harness.signUp(keyway, email: email, password: password)
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
    }

    /// Starts a sign-in of `email` and chooses the password.
    static func passwordStep(_ keyway: KeywayClient, email: String) async throws -> PromptContext {
        await keyway.flow.start(flowType: .signin, identifier: email)
        await keyway.flow.selectMethod(id: "password")
        let current = try #require(keyway.flow.currentPrompt)
        guard case (.signIn, _)? = current.prompt.enterPassword else {
            throw TestFailure("expected the password prompt, got \(current.prompt)")
        }
        return current.context
    }

    @Test func aCodeToTheAddressAndANewPasswordSignInAndEndTheOtherSessions() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk()
            let email = "forgetful@example.com"
            let earlier = try await Self.signUp(harness, keyway, email: email, password: "correct-horse-42")
            let earlierRefresh = try #require(earlier.response.refreshToken)

            let password = try await Self.passwordStep(keyway, email: email)
            #expect(password.offersPasswordReset)
            #expect(password.step.action(named: "forgotPassword")?.label == "Forgot password?")
            await keyway.flow.submitPassword("not-the-password")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCredentials)

            let sent = try await harness.server.outbox(to: email).count
            await keyway.flow.resetPassword()
            let codeStep = try #require(keyway.flow.currentPrompt)
            guard case (let destination, _, _, _, .email)? = codeStep.prompt.enterCode else {
                Issue.record("expected the code prompt, got \(codeStep.prompt)")
                return
            }
            #expect(destination == "f•••@example.com")
            #expect(codeStep.context.stepInfo?.id == "resetPasswordCode")
            #expect(codeStep.context.stepInfo?.label == "Reset your password")
            #expect(!codeStep.context.offersPasswordReset)
            #expect(!codeStep.context.offersAnotherMethod)
            let messages = try await harness.server.outbox(to: email)
            #expect(messages.count == sent + 1)
            let message = try #require(messages.last)
            #expect(message.body.contains("choose a new password"))
            let code = message.code
            #expect(code.count == 6)

            await keyway.flow.submitCode(code == "000000" ? "111111" : "000000")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCode)
            await keyway.flow.submitCode(code)
            let choose = try #require(keyway.flow.currentPrompt)
            #expect(choose.prompt == .enterPassword(purpose: .reset, minimumLength: 10))
            #expect(choose.context.stepInfo?.id == "resetPassword")
            #expect(!choose.context.offersPasswordReset)
            #expect(choose.context.step.action(named: "submitPassword")?.fields.first?.autocomplete == "new-password")

            await keyway.flow.submitPassword("short")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .weakPassword)
            await keyway.flow.submitPassword("violet-harbor-new-7")
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            #expect(tokens.idToken.authenticationMethods == ["otp"])
            #expect(tokens.idToken.subject == earlier.idToken.subject)

            // Whoever held the account's earlier session is signed out.
            await #expect(throws: (any Error).self) { _ = try await keyway.tokens.refresh(refreshToken: earlierRefresh) }
            // The old password is refused; the new one signs in.
            _ = try await Self.passwordStep(keyway, email: email)
            await keyway.flow.submitPassword("correct-horse-42")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCredentials)
            await keyway.flow.submitPassword("violet-harbor-new-7")
            let again = try #require(keyway.flow.currentUpdate.completion)
            let signedIn = try await keyway.tokens.exchange(authCode: again.authCode, codeVerifier: try #require(again.codeVerifier))
            #expect(signedIn.idToken.authenticationMethods == ["pwd"])
            // The session the reset made is not one of those it ended.
            _ = try await keyway.tokens.refresh(refreshToken: try #require(tokens.response.refreshToken))
        }
    }

    @Test func anAddressWithoutAnAccountSeesTheSameStepsAndGetsNoCode() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk()
            let email = "nobody-here@example.com"
            let password = try await Self.passwordStep(keyway, email: email)
            #expect(password.offersPasswordReset)
            await keyway.flow.resetPassword()
            let codeStep = try #require(keyway.flow.currentPrompt)
            guard case _? = codeStep.prompt.enterCode else {
                Issue.record("expected the code prompt, got \(codeStep.prompt)")
                return
            }
            #expect(codeStep.context.stepInfo?.id == "resetPasswordCode")
            // The address's owner learns of the attempt; no code goes out, so none can match.
            let message = try #require(try await harness.server.outbox(to: email).last)
            #expect(message.code.isEmpty)
            #expect(message.body.contains("no account uses it"))
            await keyway.flow.submitCode("123456")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCode)
        }
    }

    /// The second factor comes before the new password: the mailbox alone changes nothing.
    @Test func theSecondFactorComesBeforeTheNewPassword() async throws {
        try await withTestServer(
            AdaptiveHarness.start(policy: [
                "primaryMethods": ["emailOtp", "password"], "mfaMethods": ["totp", "emailOtp"], "mfaMode": "required",
                "flowTypes": ["signin", "signup"],
            ])
        ) { harness in
            let keyway = try harness.sdk()
            let email = "two-factors@example.com"
            try await harness.signUp(keyway, email: email, password: "correct-horse-42")
            if case _? = keyway.flow.currentUpdate.prompt?.selectMethod { await keyway.flow.selectMethod(id: "totp") }
            let setup = try #require(keyway.flow.currentUpdate.totpSetup)
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: setup.secret, at: harness.clock.now()))
            #expect(keyway.flow.currentUpdate.completion != nil)

            _ = try await Self.passwordStep(keyway, email: email)
            await keyway.flow.resetPassword()
            await keyway.flow.submitCode(try await harness.server.latestCode(to: email))
            // The code went by email: an email code is not offered as the second factor.
            #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            harness.clock.advance(by: 30)
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: setup.secret, at: harness.clock.now()))
            let choose = try #require(keyway.flow.currentPrompt)
            #expect(choose.prompt == .enterPassword(purpose: .reset, minimumLength: 10))
            await keyway.flow.submitPassword("violet-harbor-new-7")
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            #expect(tokens.idToken.authenticationMethods == ["otp", "mfa"])
        }
    }

    @Test func aResetAbandonedBeforeTheNewPasswordChangesNothing() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk()
            let email = "changed-my-mind@example.com"
            let earlier = try await Self.signUp(harness, keyway, email: email, password: "correct-horse-42")
            _ = try await Self.passwordStep(keyway, email: email)
            await keyway.flow.resetPassword()
            await keyway.flow.submitCode(try await harness.server.latestCode(to: email))
            #expect(keyway.flow.currentUpdate.prompt == .enterPassword(purpose: .reset, minimumLength: 10))
            await keyway.flow.cancel()
            // The old password still signs in, and the earlier session still refreshes.
            _ = try await Self.passwordStep(keyway, email: email)
            await keyway.flow.submitPassword("correct-horse-42")
            #expect(keyway.flow.currentUpdate.completion != nil)
            _ = try await keyway.tokens.refresh(refreshToken: try #require(earlier.response.refreshToken))
        }
    }

    /// An account blocked between the code and the new password keeps its password: the new one
    /// is refused with `user_blocked`, and the old one is still the account's.
    @Test func anAccountBlockedBeforeTheNewPasswordKeepsItsPassword() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk()
            let email = "blocked-midway@example.com"
            let earlier = try await Self.signUp(harness, keyway, email: email, password: "correct-horse-42")
            _ = try await Self.passwordStep(keyway, email: email)
            await keyway.flow.resetPassword()
            await keyway.flow.submitCode(try await harness.server.latestCode(to: email))
            #expect(keyway.flow.currentUpdate.prompt == .enterPassword(purpose: .reset, minimumLength: 10))
            #expect(try await harness.server.admin("POST", "/admin/users/\(earlier.idToken.subject)/block").status == 200)
            await keyway.flow.submitPassword("a-brand-new-password-9")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .userBlocked, "\(keyway.flow.currentUpdate)")

            // Unblocked: the new password is not the account's, the old one still is.
            #expect(try await harness.server.admin("POST", "/admin/users/\(earlier.idToken.subject)/unblock").status == 200)
            _ = try await Self.passwordStep(keyway, email: email)
            await keyway.flow.submitPassword("a-brand-new-password-9")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCredentials)
            await keyway.flow.submitPassword("correct-horse-42")
            #expect(keyway.flow.currentUpdate.completion != nil, "\(keyway.flow.currentUpdate)")
        }
    }

    @Test func onlyAPasswordSignInStepOffersIt() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signin, identifier: "elsewhere@example.com")
            await keyway.flow.selectMethod(id: "emailOtp")
            let code = try #require(keyway.flow.currentPrompt)
            #expect(!code.context.offersPasswordReset)
            // The SDK refuses it locally…
            await keyway.flow.resetPassword()
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .actionUnavailable)
            // …and the server refuses it too, on a choice of method (a flow of its own, whose
            // token the test holds).
            let start = try await harness.server.request(
                "POST", "/v1/flows",
                headers: ["Content-Type": "application/json", "X-Keyway-Config-Id": TestServer.configId],
                body: Data(
                    #"{"flowType":"signin","identifier":"elsewhere@example.com","codeChallenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","codeChallengeMethod":"S256"}"#
                        .utf8))
            let created = try #require(try JSONSerialization.jsonObject(with: start.body) as? [String: Any])
            #expect(created["kind"] as? String == "selectMethod", "\(created)")
            let flowId = try #require(created["flowId"] as? String)
            let token = try #require(created["flowToken"] as? String)
            let refused = try await harness.server.request(
                "POST", "/v1/flows/\(flowId)/forgotPassword",
                headers: ["X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": token])
            #expect(refused.status == 409)
            let problem = try JSONSerialization.jsonObject(with: refused.body) as? [String: Any]
            #expect(problem?["code"] as? String == "invalid_step")
            // The flow is where it was: a password still answers the choice.
            let after = try await harness.server.request(
                "GET", "/v1/flows/\(flowId)",
                headers: ["X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": token])
            let again = try #require(try JSONSerialization.jsonObject(with: after.body) as? [String: Any])
            #expect(again["kind"] as? String == "selectMethod", "\(again)")
        }
    }

    @MainActor
    @Test func theScreenModelShowsForgotPasswordThenTheCodeThenANewPassword() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk()
            let email = "screens-reset@example.com"
            _ = try await Self.signUp(harness, keyway, email: email, password: "correct-horse-42")
            let model = KeywayScreenModel(keyway: keyway)
            await model.start(identifier: email)
            await model.perform(try #require(model.screen.secondaryActions.first { $0.parameters["methodId"] == "password" }))
            let forgot = try #require(model.screen.action("forgotPassword"))
            #expect(forgot.label == "Forgot password?")
            #expect(forgot.role == .secondary)
            await model.perform(forgot)
            #expect(model.screen.kind == .step(.enterCode))
            #expect(model.screen.title == "Reset your password")
            model.values["code"] = try await harness.server.latestCode(to: email)
            await model.perform(try #require(model.screen.primaryAction))
            #expect(model.screen.kind == .step(.enterPassword))
            #expect(model.screen.title == "Choose a new password")
            #expect(model.screen.inputs.first?.kind == .newPassword(minimumLength: 10))
            #expect(model.screen.action("forgotPassword") == nil)
            model.values["password"] = "violet-harbor-new-7"
            await model.perform(try #require(model.screen.primaryAction))
            #expect(model.screen.kind == .completed)
        }
    }

    /// In the terminal, Enter alone on the password question lists its words: `f` starts the reset.
    @Test func theCLIResetsAForgottenPasswordWithEnterThenF() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk()
            let email = "terminal-reset@example.com"
            try await harness.signUp(keyway, email: email, password: "correct-horse-42")
            let home = TestFiles.directory.appendingPathComponent("keyway-cli-\(UUID().uuidString)").path
            let login = try CLIProcess(
                arguments: ["login", "--server", harness.server.baseURL.absoluteString, email],
                environment: ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_HOME": home])
            try await login.waitForError(containing: "Choose 1-2")
            login.type(try AnotherMethodTests.number(of: "password", in: login.standardError))
            try await login.waitForError(containing: "Password (Enter alone for other choices): ")
            login.type("")
            try await login.waitForError(
                containing: "Type 'f' if you forgot it, 'm' for another method, 'cancel', or Enter to type it: ")
            let sent = try await harness.server.outbox(to: email).count
            login.type("f")
            try await waitUntil("the reset code was sent") { try await harness.server.outbox(to: email).count > sent }
            try await login.waitForError(containing: "Reset your password", after: "Enter to type it: ")
            login.type(try await harness.server.latestCode(to: email))
            try await login.waitForError(containing: "New password (at least 10 characters): ")
            login.type("violet-harbor-new-7")
            #expect(try await login.waitForExit() == 0, "stderr: \(login.standardError)")
            #expect(login.standardError.contains("Signed in as \(email)."))
        }
    }
}
