import Foundation
import Keyway
import KeywayProtocol
import KeywayUI
@testable import KeywayPresentation
import Testing

/// The step of a guest's sign-up that met an existing account, as the server sends it.
enum GuestSteps {
    static let accountExists = Steps.json(
        "accountExists", payload: #"{"identifierHint":"a•••@example.com"}"#,
        actions: [
            Steps.action("signInInstead", "signInInstead", label: "Sign in to that account"),
            Steps.action("stayGuest", "stayGuest", label: "Stay a guest"),
        ])
}

@Suite("The screen of a guest's sign-up that met an existing account")
@MainActor
struct GuestScreenTests {
    @Test func theExistingAccountScreenOffersToSignInOrStayAGuest() throws {
        let screen = Steps.screen(try WireCoding.makeDecoder().decode(Step.self, from: Data(GuestSteps.accountExists.utf8)))
        #expect(screen.kind == .step(.accountExists))
        #expect(screen.title == "You already have an account")
        #expect(
            screen.messages.first { $0.code == "accountExists" }?.text
                == "a•••@example.com already has an account. Sign in to it, or go on as a guest.")
        #expect(screen.instruction == "Sign in to that account, or stay a guest?")
        #expect(screen.primaryAction?.actionName == "signInInstead")
        #expect(screen.primaryAction?.label == "Sign in to that account")
        #expect(screen.inputs.isEmpty)
        #expect(screen.secondaryActions.map(\.actionName) == ["stayGuest", "cancel"])
        #expect(screen.action("stayGuest")?.label == "Stay a guest")

        // A step without its own actions is still drawn from what it has.
        let bare = Steps.screen(
            try Steps.step(
                "accountExists", payload: #"{"identifierHint":"a•••@example.com"}"#,
                actions: [Steps.action("stayGuest", "stayGuest", label: "Stay a guest")]))
        #expect(bare.actions.filter { $0.actionName == "stayGuest" }.count == 1)
    }

    @Test func signingInInsteadGoesOnWithTheNextStep() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: GuestSteps.accountExists)
        server.on("POST /v1/flows/flw_1/signInInstead", step: ModelSteps.code("t2"))
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com", flowType: .signup)
        #expect(model.screen.kind == .step(.accountExists))

        await model.perform(try #require(model.screen.primaryAction))
        #expect(server.bodies(to: "POST /v1/flows/flw_1/signInInstead").count == 1)
        #expect(model.screen.kind == .step(.enterCode))
    }

    @Test func stayingAGuestEndsTheFlowWithAFinishedScreen() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: GuestSteps.accountExists)
        server.on("POST /v1/flows/flw_1/stayGuest", TransportResponse(status: 204, body: Data()))
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com", flowType: .signup)

        await model.perform(try #require(model.screen.action("stayGuest")))
        #expect(server.bodies(to: "POST /v1/flows/flw_1/stayGuest").count == 1)
        #expect(model.screen.kind == .finished)
        #expect(model.screen.title == "Still a guest")
        #expect(model.screen.messages.map(\.code) == ["stayedGuest"])
        #expect(model.tokens == nil)
    }

    @Test func aGuestUpgradeNeedsASession() async throws {
        let server = StubTransport()
        let model = KeywayScreenModel(keyway: try server.keyway())
        await #expect(throws: SessionError.noAccessTokenPresent) {
            try await model.startGuestUpgrade(identifier: "a@example.com")
        }
        #expect(model.screen.kind == .idle)
        #expect(server.bodies(to: "POST /v1/flows").isEmpty)
    }
}
