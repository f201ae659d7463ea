import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import KeywayUI
import Testing

/// "Use another method": a method's step chosen among others goes back to that choice, keeping
/// what the method counted; a step reached without a choice does not offer it.
@Suite("Going back to the choice of method")
struct AnotherMethodTests {
    @Test func thePasswordStepGoesBackToTheChoiceAndAnEmailCodeSignsIn() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveErrorTests.passwords)) { harness in
            let keyway = try harness.sdk()
            try await harness.signUp(keyway, email: "either@example.com", password: "correct-horse-42")

            await keyway.flow.start(flowType: .signin, identifier: "either@example.com")
            let choice = try #require(keyway.flow.currentPrompt)
            guard case (let methods, .primary, false)? = choice.prompt.selectMethod else {
                Issue.record("expected the choice of method, got \(choice.prompt)")
                return
            }
            #expect(Set(methods.map(\.id)) == ["emailOtp", "password"])
            // The choice itself has nothing to go back to.
            #expect(!choice.context.offersAnotherMethod)

            await keyway.flow.selectMethod(id: "password")
            await keyway.flow.submitPassword("not-the-password")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCredentials)
            let password = try #require(keyway.flow.currentPrompt)
            guard case _? = password.prompt.enterPassword else {
                Issue.record("expected the password prompt, got \(password.prompt)")
                return
            }
            #expect(password.context.offersAnotherMethod)
            #expect(password.context.step.action(named: "anotherMethod")?.label == "Use another method")

            await keyway.flow.useAnotherMethod()
            let again = try #require(keyway.flow.currentPrompt)
            guard case (let offered, .primary, false)? = again.prompt.selectMethod else {
                Issue.record("expected the choice again, got \(again.prompt)")
                return
            }
            #expect(offered.map(\.id) == methods.map(\.id))

            await keyway.flow.selectMethod(id: "emailOtp")
            #expect(keyway.flow.currentPrompt?.context.offersAnotherMethod == true)
            await keyway.flow.submitCode(try await harness.server.latestCode(to: "either@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            #expect(tokens.idToken.authenticationMethods == ["otp"])
        }
    }

    @Test func wrongPasswordsStayCountedAcrossTheWayBack() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveErrorTests.passwords)) { harness in
            let keyway = try harness.sdk()
            try await harness.signUp(keyway, email: "counted@example.com", password: "correct-horse-42")
            await keyway.flow.start(flowType: .signin, identifier: "counted@example.com")
            await keyway.flow.selectMethod(id: "password")
            for attempt in 1...4 { await keyway.flow.submitPassword("wrong-guess-\(attempt)") }
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCredentials)
            // Back to the choice and to the password again: the fifth wrong password still closes
            // the flow, as five in a row do.
            await keyway.flow.useAnotherMethod()
            await keyway.flow.selectMethod(id: "password")
            await keyway.flow.submitPassword("wrong-guess-5")
            let closed = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(closed.code == .tooManyAttempts)
            #expect(closed.action == .restartFlow)
        }
    }

    @Test func aStepReachedWithoutAChoiceDoesNotOfferIt() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: ["primaryMethods": ["emailOtp"], "flowTypes": ["signin"]])) {
            harness in
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signin, identifier: "only@example.com")
            let code = try #require(keyway.flow.currentPrompt)
            guard case _? = code.prompt.enterCode else {
                Issue.record("expected the code prompt, got \(code.prompt)")
                return
            }
            #expect(!code.context.offersAnotherMethod)
            // The SDK refuses it locally…
            await keyway.flow.useAnotherMethod()
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .actionUnavailable)
            // …and the server refuses it too, leaving the step as it was.
            let step = try #require(await keyway.flow.currentStep)
            let refused = try await harness.server.request(
                "POST", "/v1/flows/\(step.flowID)/anotherMethod",
                headers: ["X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": try #require(step.flowToken).revealed])
            #expect(refused.status == 409)
            let problem = try JSONSerialization.jsonObject(with: refused.body) as? [String: Any]
            #expect(problem?["code"] as? String == "invalid_step")
            await keyway.flow.submitCode(try await harness.server.latestCode(to: "only@example.com"))
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @MainActor
    @Test func theScreenModelShowsUseAnotherMethodAndGoesBack() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveErrorTests.passwords)) { harness in
            let keyway = try harness.sdk()
            try await harness.signUp(keyway, email: "screens@example.com", password: "correct-horse-42")
            let model = KeywayScreenModel(keyway: keyway)
            await model.start(identifier: "screens@example.com")
            #expect(model.screen.action("anotherMethod") == nil)
            await model.perform(try #require(model.screen.secondaryActions.first { $0.parameters["methodId"] == "password" }))
            #expect(model.screen.kind == .step(.enterPassword))
            let another = try #require(model.screen.action("anotherMethod"))
            #expect(another.label == "Use another method")
            #expect(another.role == .secondary)
            await model.perform(another)
            #expect(model.screen.kind == .step(.selectMethod))
            await model.perform(try #require(model.screen.secondaryActions.first { $0.parameters["methodId"] == "emailOtp" }))
            #expect(model.screen.kind == .step(.enterCode))
            model.values["code"] = try await harness.server.latestCode(to: "screens@example.com")
            await model.perform(try #require(model.screen.primaryAction))
            #expect(model.screen.kind == .completed)
        }
    }

    /// In the terminal a password may be any word, so Enter alone on the password question asks
    /// for the other choices: `m` goes back to the menu of methods.
    @Test func theCLIGoesBackFromThePasswordWithEnterThenM() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveErrorTests.passwords)) { harness in
            let keyway = try harness.sdk()
            let email = "terminal-back@example.com"
            try await harness.signUp(keyway, email: email, password: "correct-horse-42")
            let sent = try await harness.server.outbox(to: email).count
            let home = TestFiles.directory.appendingPathComponent("keyway-cli-\(UUID().uuidString)").path
            let login = try CLIProcess(
                arguments: ["login", "--server", harness.server.baseURL.absoluteString, email],
                environment: ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_HOME": home])
            try await login.waitForError(containing: "Choose 1-2")
            let menu = login.standardError
            login.type(try Self.number(of: "password", in: menu))
            try await login.waitForError(containing: "Password (Enter alone for other choices): ")
            login.type("")
            try await login.waitForError(
                containing: "Type 'f' if you forgot it, 'm' for another method, 'cancel', or Enter to type it: ")
            login.type("m")
            let again = try await login.waitForError(containing: "Choose 1-2", after: "Enter to type it: ")
            login.type(try Self.number(of: "code", in: again))
            try await waitUntil("the sign-in code was sent") { try await harness.server.outbox(to: email).count > sent }
            login.type(try await harness.server.latestCode(to: email))
            #expect(try await login.waitForExit() == 0, "stderr: \(login.standardError)")
            #expect(login.standardError.contains("Signed in as \(email)."))
        }
    }

    /// The number of the menu line of `menu` that mentions `word` (`  2. Enter your password`).
    static func number(of word: String, in menu: String) throws -> String {
        let line = try #require(
            menu.split(separator: "\n").first { $0.range(of: word, options: .caseInsensitive) != nil && $0.contains(". ") },
            "no menu line mentions \(word) in:\n\(menu)")
        return String(line.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
    }
}
