import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Codes: wrong codes, attempt limits, expiry, resend")
struct CodeVerificationTests {
    @Test func wrongCodeThenRightCode() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "bob@example.com")
            let code = try await server.latestCode(to: "bob@example.com")
            let wrong = code == "000000" ? "111111" : "000000"

            await keyway.flow.submitCode(wrong)
            let error = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(error.code == .invalidCode)
            #expect(error.action == .retryInput)
            #expect(error.details?.attemptsRemaining == 4)
            #expect(error.details?.traceID != nil)

            await keyway.flow.submitCode(code)
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func fiveWrongCodesCloseTheFlow() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "carol@example.com")
            let code = try await server.latestCode(to: "carol@example.com")
            let wrong = code == "000000" ? "111111" : "000000"
            for remaining in [4, 3, 2, 1] {
                await keyway.flow.submitCode(wrong)
                let error = try #require(keyway.flow.currentUpdate.errorInfo)
                #expect(error.code == .invalidCode)
                #expect(error.action == .retryInput)
                #expect(error.details?.attemptsRemaining == remaining)
            }
            await keyway.flow.submitCode(wrong)
            let last = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(last.code == .tooManyAttempts)
            #expect(last.action == .restartFlow)
            // The flow is gone for the SDK; even the right code cannot revive it.
            await keyway.flow.submitCode(code)
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .noActiveFlow)
        }
    }

    @Test func rightCodeAfterLockoutIsRefusedByTheServer() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "dave@example.com")
            let step = try #require(await keyway.flow.currentStep)
            let token = try #require(step.flowToken?.revealed)
            let code = try await server.latestCode(to: "dave@example.com")
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<5 { await keyway.flow.submitCode(wrong) }
            let response = try await server.request(
                "POST", "/v1/flows/\(step.flowID)/code",
                headers: [
                    "X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": token,
                    "Content-Type": "application/json",
                ], body: Data(#"{"code":"\#(code)"}"#.utf8))
            #expect(response.status == 429)
            let problem = try WireCoding.makeDecoder().decode(Problem.self, from: response.body)
            #expect(problem.code == .tooManyAttempts)
            #expect(problem.action == .restartFlow)
        }
    }

    @Test func resendRespectsTheCooldown() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "erin@example.com")
            let first = try #require(keyway.flow.currentUpdate.enterCode)
            #expect(abs(first.resendAt.timeIntervalSince(clock.now()) - 30) < 1)

            clock.advance(by: 10)
            #expect(await keyway.flow.resend() == false)
            #expect(try await server.outbox(to: "erin@example.com").count == 1)
            #expect(keyway.flow.currentUpdate.enterCode != nil)

            clock.advance(by: 21)
            #expect(await keyway.flow.resend() == true)
            let second = try #require(keyway.flow.currentUpdate.enterCode)
            #expect(second.resendAt > first.resendAt)
            let messages = try await server.outbox(to: "erin@example.com")
            #expect(messages.count == 2)

            // The old code no longer works; the new one does.
            if messages[0].code != messages[1].code {
                await keyway.flow.submitCode(messages[0].code)
                #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCode)
            }
            await keyway.flow.submitCode(messages[1].code)
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func serverEnforcesTheCooldownToo() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "frank@example.com")
            let step = try #require(await keyway.flow.currentStep)
            let response = try await server.request(
                "POST", "/v1/flows/\(step.flowID)/resend",
                headers: ["X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": step.flowToken!.revealed])
            #expect(response.status == 429)
            #expect(response.headers["retry-after"] == "30")
            let problem = try WireCoding.makeDecoder().decode(Problem.self, from: response.body)
            #expect(problem.code == .resendCooldown)
            #expect(problem.action == .wait)
            #expect(problem.retryAfterSeconds == 30)
            #expect(problem.retryAt != nil)
        }
    }

    @Test func expiredCodeAsksForANewOne() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "gina@example.com")
            let code = try await server.latestCode(to: "gina@example.com")
            clock.advance(by: 10 * 60 + 1)
            await keyway.flow.submitCode(code)
            let error = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(error.code == .codeExpired)
            #expect(error.action == .resendCode)
            #expect(await keyway.flow.resend())
            await keyway.flow.submitCode(try await server.latestCode(to: "gina@example.com"))
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func expiredFlowMustRestart() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "hank@example.com")
            let code = try await server.latestCode(to: "hank@example.com")
            clock.advance(by: 15 * 60 + 1)
            await keyway.flow.submitCode(code)
            let error = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(error.code == .flowExpired)
            #expect(error.action == .restartFlow)
        }
    }

    @Test func usedCodeCannotCompleteTwice() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "ivy@example.com")
            let step = try #require(await keyway.flow.currentStep)
            let code = try await server.latestCode(to: "ivy@example.com")
            await keyway.flow.submitCode(code)
            #expect(keyway.flow.currentUpdate.completion != nil)
            let replay = try await server.request(
                "POST", "/v1/flows/\(step.flowID)/code",
                headers: [
                    "X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": step.flowToken!.revealed,
                    "Content-Type": "application/json",
                ], body: Data(#"{"code":"\#(code)"}"#.utf8))
            #expect(replay.status == 409)
            #expect(try WireCoding.makeDecoder().decode(Problem.self, from: replay.body).code == .flowClosed)
        }
    }

    @Test func cancelReturnsToIdleAndClosesTheFlow() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "jack@example.com")
            let step = try #require(await keyway.flow.currentStep)
            await keyway.flow.cancel()
            #expect(keyway.flow.currentUpdate == .idle)
            let response = try await server.request(
                "GET", "/v1/flows/\(step.flowID)",
                headers: ["X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": step.flowToken!.revealed])
            #expect(response.status == 409)
        }
    }
}
