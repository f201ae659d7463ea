import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Adaptive flows: every error action")
struct AdaptiveErrorTests {
    static var passwords: [String: Any] {
        ["primaryMethods": ["emailOtp", "password"], "flowTypes": ["signin", "signup"]]
    }

    @Test func wrongPasswordsCloseTheFlowAndAreCountedApartFromCodes() async throws {
        var limits = FlowLimits()
        limits.rateLimits.passwordChecksPerIdentifier = 7
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, limits: limits, adminToken: testAdminToken)) { server in
            try await server.setPolicy(Self.passwords)
            let harness = AdaptiveHarness(clock: clock, server: server)
            let keyway = try harness.sdk()
            try await harness.signUp(keyway, email: "guess@example.com", password: "correct-horse-42")

            // Five wrong passwords close the flow: restartFlow.
            await keyway.flow.start(flowType: .signin, identifier: "guess@example.com")
            await keyway.flow.selectMethod(id: "password")
            for attempt in 1...5 {
                await keyway.flow.submitPassword("wrong-guess-\(attempt)")
            }
            let closed = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(closed.code == .tooManyAttempts)
            #expect(closed.action == .restartFlow)

            // Two more in a new flow reach the identifier's password limit: wait.
            await keyway.flow.start(flowType: .signin, identifier: "guess@example.com")
            await keyway.flow.selectMethod(id: "password")
            await keyway.flow.submitPassword("wrong-guess-6")
            await keyway.flow.submitPassword("wrong-guess-7")
            await keyway.flow.submitPassword("correct-horse-42")
            let limited = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(limited.code == .rateLimited)
            #expect(limited.action == .wait)
            #expect(limited.details?.retryAfterSeconds != nil)

            // Email codes still work: password guesses do not lock them out.
            await keyway.flow.start(flowType: .signin, identifier: "guess@example.com")
            await keyway.flow.selectMethod(id: "emailOtp")
            await keyway.flow.submitCode(try await server.latestCode(to: "guess@example.com"))
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func oneAddressCannotGuessAcrossManyAccounts() async throws {
        var limits = FlowLimits()
        limits.rateLimits.checksPerAddress = 3
        limits.rateLimits.codeSendsPerAddress = 4
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, limits: limits, adminToken: testAdminToken)) { server in
            let keyway = try AdaptiveHarness(clock: clock, server: server).sdk()
            // One wrong code for each of three accounts, then the fourth check is refused.
            for index in 1...3 {
                await keyway.flow.start(flowType: .signin, identifier: "spray\(index)@example.com")
                await keyway.flow.submitCode("000000")
                #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCode)
            }
            await keyway.flow.start(flowType: .signin, identifier: "spray4@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "spray4@example.com"))
            let limited = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(limited.code == .rateLimited)
            #expect(limited.action == .wait)
            // And the fifth code sent from this address is refused too.
            await keyway.flow.start(flowType: .signin, identifier: "spray5@example.com")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .rateLimited)
            // The window ends: checks are possible again.
            clock.advance(by: 15 * 60 + 1)
            await keyway.flow.start(flowType: .signin, identifier: "spray6@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "spray6@example.com"))
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func expiredCodesExpiredFlowsAndDisabledFlowTypes() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: ["primaryMethods": ["emailOtp"], "flowTypes": ["signin"]])) { harness in
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signin, identifier: "late@example.com")
            let code = try await harness.server.latestCode(to: "late@example.com")
            harness.clock.advance(by: 11 * 60)
            await keyway.flow.submitCode(code)
            let expired = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(expired.code == .codeExpired)
            #expect(expired.action == .resendCode)
            harness.clock.advance(by: 5 * 60)
            await keyway.flow.submitCode(code)
            let gone = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(gone.code == .flowExpired)
            #expect(gone.action == .restartFlow)

            await keyway.flow.start(flowType: .signup, identifier: "late@example.com")
            let disabled = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(disabled.code == .flowTypeNotEnabled)
            #expect(disabled.action == .abort)
        }
    }

    @Test func aBlockedUserIsStoppedAfterThePrimaryMethod() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: ["primaryMethods": ["emailOtp"], "flowTypes": ["signin"]])) { harness in
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signin, identifier: "blocked@example.com")
            await keyway.flow.submitCode(try await harness.server.latestCode(to: "blocked@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            let bearer = ["Authorization": "Bearer \(tokens.response.accessToken.revealed)"]
            #expect(try await harness.server.request("GET", "/oauth2/userinfo", headers: bearer).status == 200)
            let blocked = try await harness.server.admin("POST", "/admin/users/\(tokens.idToken.subject)/block")
            #expect(blocked.status == 200)
            // Blocking ended the sessions: the access token and the refresh token stop working.
            #expect(try await harness.server.request("GET", "/oauth2/userinfo", headers: bearer).status == 401)
            let refresh = try await harness.server.token([
                "grant_type": "refresh_token", "refresh_token": try #require(tokens.response.refreshToken).revealed,
                "client_id": TestServer.configId,
            ])
            #expect(refresh.json["error"] as? String == "invalid_grant")

            await keyway.flow.start(flowType: .signin, identifier: "blocked@example.com")
            #expect(keyway.flow.currentUpdate.enterCode != nil)
            await keyway.flow.submitCode(try await harness.server.latestCode(to: "blocked@example.com"))
            let refused = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(refused.code == .userBlocked)
            #expect(refused.action == .abort)
        }
    }

    @Test func aRequiredSecondFactorThatCannotBeSetUpStopsTheFlow() async throws {
        // A user known by phone only has no email address to use as the second factor.
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["smsOtp"], "mfaMethods": ["emailOtp"], "mfaMode": "required",
            "flowTypes": ["signin", "signup"],
        ])) { harness in
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signup, identifier: "+14155550177")
            await keyway.flow.submitCode(try await harness.server.latestCode(to: "+14155550177"))
            let stopped = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(stopped.code == .methodUnavailable)
            #expect(stopped.action == .abort)
            #expect(try await harness.server.rowCount("users") == 0)
        }
    }

    @Test func actionsOfAnotherStepAreRefused() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.passwords)) { harness in
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signin, identifier: "order@example.com")
            let flowId = try #require(await keyway.flow.currentStep?.flowID)
            // The SDK refuses locally what the step does not offer…
            await keyway.flow.submitPassword("whatever-it-is")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .actionUnavailable)
            // …and the server refuses it too.
            let start = try await harness.server.request(
                "POST", "/v1/flows",
                headers: ["Content-Type": "application/json", "X-Keyway-Config-Id": TestServer.configId],
                body: Data(
                    #"{"flowType":"signin","identifier":"order@example.com","codeChallenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","codeChallengeMethod":"S256"}"#
                        .utf8))
            let created = try JSONSerialization.jsonObject(with: start.body) as! [String: Any]
            let otherId = try #require(created["flowId"] as? String)
            let token = try #require(created["flowToken"] as? String)
            #expect(otherId != flowId)
            let wrongStep = try await harness.server.request(
                "POST", "/v1/flows/\(otherId)/password",
                headers: [
                    "Content-Type": "application/json", "X-Keyway-Config-Id": TestServer.configId,
                    "X-Keyway-Flow-Token": token,
                ],
                body: Data(#"{"password":"whatever-it-is"}"#.utf8))
            #expect(wrongStep.status == 409)
            let problem = try JSONSerialization.jsonObject(with: wrongStep.body) as! [String: Any]
            #expect(problem["code"] as? String == "invalid_step")
        }
    }
}
