import Foundation
import Keyway
import KeywayProtocol
import Testing

@testable import KeywayUI
@testable import KeywayPresentation

/// A view's `.task(id: screen)` cancels `waitForFlow()` when the screen changes: the screen it
/// then shows — with its local errors, messages and busy buttons — is left as it is.
@Suite("The screen model after its wait is cancelled")
@MainActor
struct ScreenModelCancellationTests {
    @Test func aCancelledWaitLeavesTheScreenAsItIs() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: ModelSteps.approval)
        // Every poll finds the approval still pending: the flow does not move by itself.
        server.on("POST /v1/flows/flw_1/approval", step: ModelSteps.approval)
        server.on("DELETE /v1/flows/flw_1", TransportResponse(status: 204))
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")
        #expect(model.screen.isWaiting)

        let waiting = Task { await model.waitForFlow() }
        await Task.yield()
        // What the screen shows meanwhile that only the model knows: a local message.
        let local = ScreenMessage(level: .error, code: "localCheck", text: "Checked on this device.")
        model.screen.messages.append(local)
        let shown = model.screen
        waiting.cancel()
        await waiting.value
        #expect(model.screen == shown, "a cancelled wait must not refresh the screen")
        #expect(model.screen.messages.contains(local))
        await model.cancel()
    }
}
