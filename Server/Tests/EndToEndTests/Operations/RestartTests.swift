import Foundation
@testable import Keyway
import KeywayTestSupport
import Testing

@Suite("Server restart in the middle of a flow")
struct RestartTests {
    @Test func flowSurvivesARestartOnTheSameDatabase() async throws {
        let clock = ManualClock()
        let first = try await TestServer.start(clock: clock)
        let (keyway, code, jwksBefore) = try await withTestServer(first) { first in
            let keyway = try makeKeyway(first, clock: clock)
            await keyway.flow.start(identifier: "restart@example.com")
            #expect(keyway.flow.currentUpdate.enterCode != nil)
            let code = try await first.latestCode(to: "restart@example.com")
            let jwksBefore = try await first.request("GET", "/.well-known/jwks.json").body
            return (keyway, code, jwksBefore)
        }

        try await withTestServer(TestServer.start(database: first.database, port: first.port, clock: clock)) { second in
            // The wrong-attempt counter also survived: one wrong try leaves four.
            await keyway.flow.submitCode(code == "000000" ? "111111" : "000000")
            #expect(keyway.flow.currentUpdate.errorInfo?.details?.attemptsRemaining == 4)
            await keyway.flow.submitCode(code)
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!)
            #expect(tokens.idToken.email == "restart@example.com")
            // The signing key was persisted, not regenerated.
            #expect(try await second.request("GET", "/.well-known/jwks.json").body == jwksBefore)
        }
    }
}
