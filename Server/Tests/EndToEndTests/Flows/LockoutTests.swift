import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// What an attacker controls is kept apart from what protects the owner: flooding an identifier
/// from elsewhere throttles the flooder, slows the identifier past a ceiling, and never keeps the
/// owner out. Other clients are played by other loopback addresses (127.0.0.x).
@Suite("An attacker cannot lock the owner out")
struct LockoutTests {
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    static func start(_ server: TestServer, _ email: String, from source: String) async throws
        -> (status: Int, json: [String: Any], retryAfter: Int?)
    {
        let response = try await server.request(
            "POST", "/v1/flows", headers: ["Content-Type": "application/json", ProtocolHeader.configID: TestServer.configId],
            body: Data(
                #"{"flowType":"signin","identifier":"\#(email)","codeChallenge":"\#(challenge)","codeChallengeMethod":"S256"}"#
                    .utf8), from: source)
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, json, response.headers["retry-after"].flatMap(Int.init))
    }

    @Test func floodingFromElsewhereThrottlesTheFlooderAndSlowsButNeverBlocksTheOwner() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            // The owner signs in once from 127.0.0.1: that network is known for the account.
            let owner = try makeKeyway(server, clock: clock)
            await owner.flow.start(identifier: "victim@example.com")
            await owner.flow.submitCode(try await server.latestCode(to: "victim@example.com"))
            #expect(owner.flow.currentUpdate.completion != nil)
            clock.advance(by: 1)

            // One flooding client gets ten starts for the identifier, then waits the window out.
            for _ in 0..<10 { #expect(try await Self.start(server, "victim@example.com", from: "127.0.0.2").status == 201) }
            let throttled = try await Self.start(server, "victim@example.com", from: "127.0.0.2")
            #expect(throttled.status == 429)
            #expect(throttled.json["action"] as? String == "wait")
            #expect((throttled.retryAfter ?? 0) > 60)

            // More clients bring the identifier to its ceiling: 3 × 10 starts over every client
            // (the owner's one, ten, ten and nine).
            for (source, count) in [("127.0.0.3", 10), ("127.0.0.4", 9)] {
                for _ in 0..<count { #expect(try await Self.start(server, "victim@example.com", from: source).status == 201) }
            }
            // Past it, one start a minute goes through, whoever sends it.
            let slotTaken = try await Self.start(server, "victim@example.com", from: "127.0.0.5")
            #expect(slotTaken.status == 201)
            let slowed = try await Self.start(server, "victim@example.com", from: "127.0.0.6")
            #expect(slowed.status == 429)
            #expect((1...60).contains(slowed.retryAfter ?? 0), "slowed for a minute at most, not the window")

            // The owner, from the network they signed in from, is not slowed at all.
            let again = try makeKeyway(server, clock: clock)
            await again.flow.start(identifier: "victim@example.com")
            #expect(again.flow.currentUpdate.enterCode != nil)
            await again.flow.submitCode(try await server.latestCode(to: "victim@example.com"))
            #expect(again.flow.currentUpdate.completion != nil)

            // From a new network the owner waits a minute at most, then gets through.
            clock.advance(by: 61)
            #expect(try await Self.start(server, "victim@example.com", from: "127.0.0.9").status == 201)
        }
    }

    @Test func wrongCodesFromElsewhereDoNotStopTheOwnersCode() async throws {
        let clock = ManualClock()
        var limits = FlowLimits()
        limits.rateLimits.codeChecksPerIdentifier = 4
        try await withTestServer(TestServer.start(clock: clock, limits: limits)) { server in
            let owner = try makeKeyway(server, clock: clock)
            await owner.flow.start(identifier: "owner@example.com")
            await owner.flow.submitCode(try await server.latestCode(to: "owner@example.com"))
            #expect(owner.flow.currentUpdate.completion != nil)

            // A guesser elsewhere burns its four guesses, then waits.
            let flow = try await Self.start(server, "owner@example.com", from: "127.0.0.7")
            let flowId = try #require(flow.json["flowId"] as? String)
            let token = try #require(flow.json["flowToken"] as? String)
            var statuses: [Int] = []
            for guess in ["000000", "111111", "222222", "333333", "444444"] {
                let answer = try await server.request(
                    "POST", "/v1/flows/\(flowId)/code",
                    headers: [
                        "Content-Type": "application/json", ProtocolHeader.configID: TestServer.configId,
                        ProtocolHeader.flowToken: token,
                    ], body: Data(#"{"code":"\#(guess)"}"#.utf8), from: "127.0.0.7")
                statuses.append(answer.status)
            }
            #expect(statuses.last == 429, "\(statuses)")

            // The owner's own code still works.
            let again = try makeKeyway(server, clock: clock)
            await again.flow.start(identifier: "owner@example.com")
            await again.flow.submitCode(try await server.latestCode(to: "owner@example.com"))
            #expect(again.flow.currentUpdate.completion != nil)
        }
    }
}
