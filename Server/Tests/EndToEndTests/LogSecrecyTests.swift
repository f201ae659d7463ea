import Foundation
import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Secrets never reach the logs")
struct LogSecrecyTests {
    @Test func codesTokensAndSecretsStayOutOfEveryLogLine() async throws {
        let clock = ManualClock()
        let logs = LogCapture()
        try await withTestServer(TestServer.start(clock: clock, logs: logs)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "secret@example.com")
            let flowToken = try #require(await keyway.flow.currentStep?.flowToken?.revealed)
            let code = try await server.latestCode(to: "secret@example.com")
            await keyway.flow.submitCode(code)
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let verifier = try #require(completion.codeVerifier)
            let tokens = try await keyway.exchange(authCode: completion.authCode, codeVerifier: verifier)

            let lines = logs.all
            #expect(lines.contains { $0.contains("POST /v1/flows 201") })
            #expect(lines.contains { $0.contains("POST /oauth2/token 200") })
            // The code appears only on the dev outbox line.
            let withCode = lines.filter { $0.contains(code) }
            #expect(withCode.count == 1)
            #expect(withCode.allSatisfy { $0.contains("dev outbox") })
            let secrets = [
                flowToken, completion.authCode.revealed, verifier.revealed, tokens.response.accessToken.revealed,
                tokens.response.idToken!.revealed, tokens.response.refreshToken!.revealed,
            ]
            for secret in secrets {
                #expect(!lines.contains { $0.contains(secret) })
            }
            // Every request line carries a trace ID.
            #expect(lines.filter { $0.contains(" /v1/flows") }.allSatisfy { $0.contains("traceId=") })
        }
    }

    @Test func sdkUpdatesDoNotPrintSecrets() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "print@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "print@example.com"))
            let update = keyway.flow.currentUpdate
            let completion = try #require(update.completion)
            let printed = "\(update)"
            #expect(!printed.contains(completion.authCode.revealed))
            #expect(!printed.contains(completion.codeVerifier!.revealed))
        }
    }
}
