import Foundation
import Keyway
import KeywayProtocol
import KeywayUI
@testable import KeywayPresentation
import Testing

/// The code step of a sign-in link, as the server sends it.
enum LinkSteps {
    static func code(_ traceId: String, channel: String = "email", messages: String? = nil) -> String {
        let destination = channel == "sms" ? "+1••••••••23" : "a•••@example.com"
        return Steps.json(
            "enterCode",
            payload: #"{"destination":"\#(destination)","codeLength":6,"expiresAt":"2030-01-01T00:10:00Z","resendAt":"2020-01-01T00:00:30Z","channel":"\#(channel)","attemptsRemaining":5,"linkSent":true,"pollInterval":1}"#,
            actions: [
                Steps.action("submitCode", "code", label: "Continue", fields: Steps.codeField),
                Steps.action("resend", "resend", label: "Send a new code"),
                Steps.action(
                    "openLink", "link", label: "Continue with the link",
                    fields: #"[{"name":"token","type":"text","required":true,"label":"Link","maxLength":200}]"#),
                Steps.action("poll", "link/poll", label: "Check again"),
            ],
            messages: messages
                ?? #"[{"level":"info","code":"linkSent","text":"We sent a sign-in link and a 6-digit code to a•••@example.com. Open the link, or enter the code."}]"#,
            info: "Check your email", traceId: traceId)
    }
}

@Suite("Sign-in links on screen: a code input that also waits for the link")
@MainActor
struct SignInLinkScreenTests {
    @Test func theScreenSaysALinkAndACodeWereSentTakesTheCodeAndWaits() throws {
        let step = try WireCoding.makeDecoder().decode(Step.self, from: Data(LinkSteps.code("t1").utf8))
        let screen = Steps.screen(step)
        #expect(screen.kind == .step(.enterCode))
        #expect(screen.title == "Check your email")
        #expect(screen.instruction == "Open the link, or enter the code")
        #expect(screen.messages.map(\.code) == ["linkSent"], "the server's sentence, not a second one")
        #expect(screen.isWaiting, "approved on another device, the flow moves on by itself")
        #expect(screen.inputs.map(\.name) == ["code"])
        #expect(screen.primaryAction?.id == "submitCode")
        // Opening the link and polling are the app's and the SDK's, not buttons.
        #expect(screen.secondaryActions.map(\.id) == ["resend", "cancel"])
        #expect(screen.countdowns.map(\.purpose) == [.resendAvailable, .codeExpires])
    }

    @Test func withoutTheServersSentenceTheScreenSaysItByChannel() throws {
        let json = LinkSteps.code("t1", channel: "sms", messages: "[]")
        let screen = Steps.screen(try WireCoding.makeDecoder().decode(Step.self, from: Data(json.utf8)))
        #expect(screen.messages.map(\.code) == ["linkSent"])
        #expect(screen.messages.first?.text.contains("texted a sign-in link and a code to +1••••••••23") == true)
        // A code step without a link does not wait.
        let plain = Steps.screen(try WireCoding.makeDecoder().decode(Step.self, from: Data(ModelSteps.code("t1").utf8)))
        #expect(!plain.isWaiting)
        #expect(plain.instruction == nil)
    }

    @Test func theModelFollowsALinkDeniedOnAnotherDevice() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: LinkSteps.code("t1"))
        server.on("POST /v1/flows/flw_1/link/poll", problem: "link_denied", status: 403, action: "abort")
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")
        #expect(model.screen.isWaiting)

        // The SDK polls by itself; the model follows until the flow moves on.
        await model.waitForFlow()
        #expect(model.screen.kind == .ended)
        #expect(model.screen.banner?.code == .linkDenied)
    }

    @Test func aLinkOpenedInTheAppGoesToTheFlowAndARefusalKeepsTheScreen() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: LinkSteps.code("t1"))
        server.on("POST /v1/flows/flw_1/link", problem: "invalid_link", status: 400, action: "retryInput")
        server.on("POST /v1/flows/flw_1/link", step: ModelSteps.manage("t2"))
        var options = KeywayOptions(transport: server)
        options.autoPollApprovals = false
        let keyway = try KeywayClient(configID: "cfg_test", baseURL: URL(string: "https://auth.example.com")!, options: options)
        let model = KeywayScreenModel(keyway: keyway)
        await model.start(identifier: "a@example.com")

        await model.openLink(URL(string: "https://app.example.com/link/ksl_other")!)
        #expect(model.screen.kind == .step(.enterCode))
        #expect(model.screen.banner?.code == .invalidLink)
        #expect(model.screen.inputs.map(\.name) == ["code"], "the code still works")

        await model.openLink(URL(string: "https://app.example.com/link/ksl_abc-123")!)
        #expect(model.screen.kind == .step(.manageAccount))
        #expect(server.bodies(to: "POST /v1/flows/flw_1/link") == [["token": "ksl_other"], ["token": "ksl_abc-123"]])
    }
}
