import Foundation
@testable import Keyway
import KeywayServer
import KeywayTestSupport
import KeywayUI
import Testing

@Suite("The screen model runs a whole flow against the server, as a screen would")
struct ScreenModelTests {
    @MainActor
    @Test func aSignInThroughScreensEndsInASavedSession() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock, completedSignIns: .saveToSession)
            let session = keyway.session
            let model = KeywayScreenModel(keyway: keyway)

            await model.start(identifier: "screens@example.com")
            #expect(model.screen.kind == .step(.enterCode))
            #expect(model.screen.title == "Verify your email")
            let submit = try #require(model.screen.primaryAction)

            // Checked before sending: a short code stays on the screen with its reason.
            model.values["code"] = "12"
            await model.perform(submit)
            #expect(model.screen.inputs.first?.error != nil)
            #expect(keyway.flow.currentUpdate.errorInfo == nil, "nothing was sent")

            // A wrong code: the server's refusal, with the input kept.
            let right = try await server.latestCode(to: "screens@example.com")
            model.values["code"] = right == "000000" ? "111111" : "000000"
            await model.perform(submit)
            #expect(model.screen.banner?.code == .invalidCode)
            #expect(model.screen.banner?.recovery == .retry)
            #expect(model.screen.kind == .step(.enterCode))
            #expect(model.screen.inputs.map(\.name) == ["code"])

            model.values["code"] = right
            await model.perform(submit)
            #expect(model.screen.kind == .completed)
            let tokens = try #require(model.tokens)
            #expect(tokens.idToken.email == "screens@example.com")
            #expect(try await session.tokens()?.idToken.subject == tokens.idToken.subject)

            // The sign-in sheet closes: the model forgets the finished flow, the session keeps
            // the tokens, and the next sign-in starts from the beginning.
            await model.leave()
            #expect(model.screen.kind == .idle)
            #expect(model.tokens == nil)
            #expect(try await session.tokens()?.idToken.subject == tokens.idToken.subject)
            await model.start(identifier: "screens@example.com")
            #expect(model.screen.kind == .step(.enterCode))
            model.values["code"] = try await server.latestCode(to: "screens@example.com")
            await model.perform(try #require(model.screen.primaryAction))
            #expect(model.screen.kind == .completed)
            #expect(model.tokens?.idToken.subject == tokens.idToken.subject)
        }
    }

    @MainActor
    @Test func cancellingAndStartingAgainFromAnEndedFlow() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let model = KeywayScreenModel(keyway: keyway)
            await model.start(identifier: "again@example.com")
            let cancel = try #require(model.screen.action("cancel"))
            await model.perform(cancel)
            #expect(model.screen.kind == .idle)

            // A flow that expires ends with a way to start again.
            await model.start(identifier: "again@example.com")
            clock.advance(by: FlowLimits().flowLifetime + 1)
            model.values["code"] = "123456"
            await model.perform(try #require(model.screen.primaryAction))
            #expect(model.screen.kind == .ended)
            let restart = try #require(model.screen.secondaryActions.first { $0.role == .restart })
            await model.perform(restart)
            #expect(model.screen.kind == .step(.enterCode))
        }
    }
}
