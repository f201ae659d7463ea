import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Rate limits across flows, per identifier and per address")
struct RateLimitTests {
    func startRaw(_ server: TestServer, email: String) async throws -> (status: Int, headers: [String: String], json: [String: Any]) {
        let body = try JSONSerialization.data(withJSONObject: [
            "flowType": "signin", "identifier": email, "codeChallengeMethod": "S256",
            "codeChallenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        ])
        let response = try await server.request(
            "POST", "/v1/flows", headers: ["Content-Type": "application/json", "X-Keyway-Config-Id": TestServer.configId],
            body: body)
        return (response.status, response.headers, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    @Test func flowStartsPerIdentifierAreLimitedWhateverTheSpellingAndAcrossRestarts() async throws {
        let clock = ManualClock()
        let server = try await TestServer.start(clock: clock)
        try await withTestServer(server) { server in
            for _ in 0..<10 { #expect(try await startRaw(server, email: "limit@example.com").status == 201) }
            let refused = try await startRaw(server, email: "  LIMIT@Example.com")
            #expect(refused.status == 429)
            #expect(refused.json["code"] as? String == "rate_limited")
            #expect(refused.json["action"] as? String == "wait")
            #expect(refused.json["retryAt"] != nil)
            #expect(refused.headers["retry-after"].flatMap(Int.init).map { (1...900).contains($0) } == true)
            // Full-width letters are the same address once folded (NFKC).
            #expect(try await startRaw(server, email: "ｌｉｍｉｔ@example.com").status == 429)
            // Another identifier is not affected.
            #expect(try await startRaw(server, email: "other@example.com").status == 201)
        }

        // The counters live in the database: a restart changes nothing.
        try await withTestServer(TestServer.start(database: server.database, clock: clock)) { restarted in
            // The SDK shows the wait action with its time.
            let keyway = try makeKeyway(restarted, clock: clock)
            await keyway.flow.start(identifier: "limit@example.com")
            let error = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(error.code == .rateLimited)
            #expect(error.action == .wait)
            #expect(error.details?.retryAt != nil)

            // After the window, flows start again.
            clock.advance(by: 15 * 60 + 1)
            #expect(try await startRaw(restarted, email: "limit@example.com").status == 201)
        }
    }

    @Test func codeChecksAreCountedOverAllFlowsOfAnIdentifier() async throws {
        let clock = ManualClock()
        var limits = FlowLimits()
        limits.rateLimits.window = 5 * 60
        try await withTestServer(TestServer.start(clock: clock, limits: limits)) { server in
            let email = "guess@example.com"
            // Three flows of five wrong guesses each use up the fifteen checks of the window.
            for _ in 0..<3 {
                let keyway = try makeKeyway(server, clock: clock)
                await keyway.flow.start(identifier: email)
                let code = try await server.latestCode(to: email)
                for _ in 0..<5 { await keyway.flow.submitCode(code == "000000" ? "111111" : "000000") }
                #expect(keyway.flow.currentUpdate.errorInfo?.code == .tooManyAttempts)
            }
            // A fourth flow cannot even try the right code until the window ends.
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: email)
            let code = try await server.latestCode(to: email)
            await keyway.flow.submitCode(code)
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .rateLimited)
            #expect(keyway.flow.currentUpdate.errorInfo?.action == .wait)
            // The refused check did not use up the flow: after the window, the same code works.
            clock.advance(by: 5 * 60 + 1)
            await keyway.flow.submitCode(code)
            #expect(keyway.flow.currentUpdate.completion != nil, "\(keyway.flow.currentUpdate)")
        }
    }

    @Test func codeSendsIncludeResends() async throws {
        let clock = ManualClock()
        var limits = FlowLimits()
        limits.rateLimits.codeSendsPerIdentifier = 4
        try await withTestServer(TestServer.start(clock: clock, limits: limits)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "sends@example.com")
            for _ in 0..<3 {
                clock.advance(by: 31)
                #expect(await keyway.flow.resend())
            }
            clock.advance(by: 31)
            #expect(await keyway.flow.resend() == false)
            #expect(try await server.outbox(to: "sends@example.com").count == 4)
        }
    }

    @Test func flowStartsPerAddress() async throws {
        let clock = ManualClock()
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerAddress = 3
        try await withTestServer(TestServer.start(clock: clock, limits: limits)) { server throws in
            for index in 0..<3 { #expect(try await startRaw(server, email: "a\(index)@example.com").status == 201) }
            #expect(try await startRaw(server, email: "a9@example.com").status == 429)

            var invalid = FlowLimits()
            invalid.rateLimits.flowStartsPerIdentifier = -1
            await #expect(throws: ConfigurationError.self) {
                try await withTestServer(TestServer.start(clock: clock, limits: invalid)) { _ in }
            }
        }
    }
}
