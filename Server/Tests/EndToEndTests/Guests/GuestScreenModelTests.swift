import Foundation
@testable import Keyway
import KeywayServer
import KeywayTestSupport
import KeywayUI
import Testing

@Suite("The screen model upgrades a guest against the server")
struct GuestScreenModelTests {
    @MainActor
    @Test func aGuestSignsUpThroughScreensAndKeepsItsUserID() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: GuestTests.policy())) { harness in
            let keyway = try harness.sdk()
            let session = keyway.session
            let guest = try await session.signInAsGuest()
            let model = KeywayScreenModel(keyway: keyway)

            try await model.startGuestUpgrade(identifier: "screen-guest@example.com")
            #expect(model.screen.kind == .step(.enterCode))
            model.values["code"] = try await harness.server.latestCode(to: "screen-guest@example.com")
            await model.perform(try #require(model.screen.primaryAction))
            #expect(model.screen.kind == .completed)
            let tokens = try #require(model.tokens)
            #expect(tokens.idToken.subject == guest.idToken.subject)
            #expect(tokens.idToken.isAnonymous == false)
            // The session's entry is the account now, under the same user ID.
            let saved = try #require(try await session.tokens())
            #expect(saved.idToken.subject == guest.idToken.subject)
            #expect(saved.idToken.isAnonymous == false)
            #expect(try await session.accounts() == [guest.idToken.subject])

            // The account is no longer a guest: starting again is refused on the screen.
            try await model.startGuestUpgrade(identifier: "again@example.com")
            #expect(model.screen.banner?.code == .notAGuest)
        }
    }

    @MainActor
    @Test func theExistingAccountScreenSignsInOrStaysAGuest() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: GuestTests.policy())) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            let existing = try await GuestTests.signUp(keyway, server, email: "dora@example.com")
            let session = keyway.session
            let guest = try await session.signInAsGuest()
            let model = KeywayScreenModel(keyway: keyway)

            @MainActor func reachAccountExists(_ count: Int) async throws {
                try await model.startGuestUpgrade(identifier: "dora@example.com")
                try await waitUntil("code \(count) was sent") {
                    (try? await server.outbox(to: "dora@example.com").count) ?? 0 >= count
                }
                model.values["code"] = try await server.latestCode(to: "dora@example.com")
                await model.perform(try #require(model.screen.primaryAction))
                #expect(model.screen.kind == .step(.accountExists))
                #expect(model.screen.primaryAction?.actionName == "signInInstead")
                #expect(model.screen.secondaryActions.map(\.actionName) == ["stayGuest", "cancel"])
                #expect(model.screen.messages.contains { $0.code == "accountExists" })
            }

            try await reachAccountExists(2)
            await model.perform(try #require(model.screen.action("stayGuest")))
            #expect(model.screen.kind == .finished)
            #expect(model.screen.messages.map(\.code) == ["stayedGuest"])
            #expect(model.tokens == nil)
            #expect(try await session.tokens()?.idToken.subject == guest.idToken.subject)
            #expect(try await session.tokens()?.idToken.isAnonymous == true)

            try await reachAccountExists(3)
            await model.perform(try #require(model.screen.primaryAction))
            #expect(model.screen.kind == .completed)
            #expect(model.tokens?.idToken.subject == existing.idToken.subject)
            #expect(try await session.currentAccount() == existing.idToken.subject)
            // The guest stays in the session until the app is done with it.
            #expect(Set(try await session.accounts()) == [guest.idToken.subject, existing.idToken.subject])
        }
    }
}
