import Foundation
@testable import Keyway
import KeywayServer
import KeywayTestSupport
import Testing

/// The linear calls for the common case, the update stream that ends with the flow, and the prompt
/// that stays available under an error.
@Suite("The SDK's first hour: a sign-in with a code in straight-line code, streams that end")
struct CodeSignInTests {
    /// Collects what a closure saw, across tasks.
    final class Seen: @unchecked Sendable {
        // @unchecked: `items` is only touched under `lock`.
        private let lock = NSLock()
        private var items: [SignInCode] = []
        func append(_ item: SignInCode) { lock.withLock { items.append(item) } }
        var all: [SignInCode] { lock.withLock { items } }
    }

    @Test func oneCallSignsInAndAsksAgainAfterAWrongCode() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let seen = Seen()
            let tokens = try await keyway.signIn(withCodeSentTo: "linear@example.com") { sent in
                seen.append(sent)
                let right = try await server.latestCode(to: "linear@example.com")
                return seen.all.count == 1 ? (right == "000000" ? "111111" : "000000") : right
            }
            #expect(tokens.idToken.email == "linear@example.com")
            #expect(seen.all.count == 2)
            #expect(seen.all.first?.destination == "l•••@example.com")
            #expect(seen.all.first?.channel == .email)
            #expect(seen.all.first?.codeLength == 6)
        }
    }

    @Test func sendThenVerifyAndAWrongCodeThrowsWithTheActionAndKeepsThePrompt() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let sent = try await keyway.sendSignInCode(to: "two-step@example.com")
            #expect(sent.resendAt > clock.now())
            let right = try await server.latestCode(to: "two-step@example.com")
            do {
                _ = try await keyway.verifySignInCode(right == "000000" ? "111111" : "000000")
                Issue.record("A wrong code was accepted.")
            } catch let error as FlowError {
                #expect(error.code == .invalidCode)
                #expect(error.action == .retryInput)
                #expect(error.attemptsRemaining == 4)
                #expect(error.errorDescription?.isEmpty == false)
                #expect(error.recoverySuggestion != nil)
            }
            // The update is the error; the prompt is still there to draw under it.
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCode)
            guard case (let destination, _, _, _, _)? = keyway.flow.currentPrompt?.prompt.enterCode else {
                throw TestFailure("The code prompt is gone after the error: \(String(describing: keyway.flow.currentPrompt))")
            }
            #expect(destination == sent.destination)
            let tokens = try await keyway.verifySignInCode(right)
            #expect(tokens.idToken.email == "two-step@example.com")
            #expect(keyway.flow.currentPrompt == nil)
            // Nothing waits for a code any more.
            await #expect(throws: FlowError.self) { _ = try await keyway.verifySignInCode(right) }
        }
    }

    @Test func theCodeMethodIsChosenFromTheIdentifierAndMoreThanACodeIsHandedToTheFlow() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["password", "emailOtp"], "mfaMethods": ["totp"], "mfaMode": "required",
            "flowTypes": ["signin"],
        ])) { harness in
            let keyway = try harness.sdk()
            let sent = try await keyway.sendSignInCode(to: "second@example.com")
            #expect(sent.channel == .email)
            do {
                _ = try await keyway.verifySignInCode(try await harness.server.latestCode(to: "second@example.com"))
                Issue.record("A sign-in that needs a second factor completed with the code alone.")
            } catch let error as FlowError {
                #expect(error.code == .unhandledStep)
            }
            // The flow goes on where the linear calls stopped.
            guard case _? = keyway.flow.currentPrompt?.prompt.setupTotp else {
                throw TestFailure("Expected the authenticator set-up, got \(keyway.flow.currentUpdate)")
            }
        }
    }

    @Test func aRefusalThrowsTheServersProblem() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: ["primaryMethods": ["emailOtp"], "flowTypes": ["signin"]])) {
            harness in
            let keyway = try harness.sdk()
            do {
                _ = try await keyway.sendSignInCode(to: "not an identifier")
                Issue.record("An invalid identifier started a flow.")
            } catch let error as FlowError {
                #expect(error.code == .invalidRequest)
                #expect(error.action == .retryInput)
                #expect(error.problem?.invalidFields?.map(\.name) == ["identifier"])
            }
        }
    }

    @Test func theUpdateStreamEndsWithTheFlow() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)

            // Completed: the loop of the README ends.
            await keyway.flow.start(identifier: "stream@example.com")
            var seen: [String] = []
            // An error the flow survives (a request that failed) does not end the stream: the
            // loops below stop on one, so a failure fails the test instead of waiting forever.
            reading: for await update in keyway.flow.updates {
                switch update {
                case .prompt(_, let prompt) where prompt.kind == .enterCode:
                    seen.append("code")
                    await keyway.flow.submitCode(try await server.latestCode(to: "stream@example.com"))
                case .completed:
                    seen.append("completed")
                case .loading:
                    continue
                case .error:
                    seen.append("error: \(update)")
                    break reading
                default:
                    seen.append("other")
                }
            }
            #expect(seen == ["code", "completed"])
            // A stream asked for after the end gives the completion and ends.
            var after: [FlowUpdate] = []
            for await update in keyway.flow.updates { after.append(update) }
            #expect(after.count == 1 && after.first?.completion != nil)

            // Cancelled: the stream ends with `.idle`.
            await keyway.flow.start(identifier: "stream@example.com")
            var last: FlowUpdate?
            for await update in keyway.flow.updates {
                last = update
                if case .prompt = update { await keyway.flow.cancel() }
                if case .error = update { break }
            }
            #expect(last == .idle)

            // Ended by the server (expired: restartFlow): the stream ends with the error.
            await keyway.flow.start(identifier: "stream@example.com")
            clock.advance(by: FlowLimits().flowLifetime + 1)
            var ending: FlowUpdate?
            for await update in keyway.flow.updates {
                ending = update
                if case .prompt = update { await keyway.flow.submitCode("123456") }
                if case .error = update { break }
            }
            #expect(ending?.errorInfo?.action == .restartFlow)
        }
    }
}
