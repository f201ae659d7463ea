import Foundation
import Keyway
import KeywayPresentation
import KeywayProtocol
import KeywayUI
import Testing

@testable import KeywayServer
@testable import keyway

/// A step kind none of the renderers was written for, mapped once (`StepScreens`) and drawn by
/// all three from that mapping: KeywayUI's screen model (what the SwiftUI views draw), the CLI's
/// printer and question, and the server's hosted page.
@Suite("A new step kind: one mapping, three renderers")
@MainActor
struct NewStepKindRenderingTests {
    static let scanBadge = StepKind(rawValue: "scanBadge")

    /// The one mapping, as a project that adds a badge-reader method would write it.
    static let screens = StepScreens.standard.adding(scanBadge) { step, screen in
        screen.title = "Scan your badge"
        screen.instruction = "Hold your badge to the reader"
        screen.displays = [.emphasis(label: "Reader", value: "Lobby 2")]
        screen.addPrimary(from: step, named: "submitBadge")
    }

    nonisolated static let stepJSON = """
        {"flowId":"flw_1","kind":"scanBadge","actions":[
          {"name":"submitBadge","href":"https://auth.example.com/v1/flows/flw_1/badge","method":"POST","label":"Check in",
           "fields":[{"name":"badge","type":"text","required":true,"label":"Badge number"}]},
          {"name":"cancel","href":"https://auth.example.com/v1/flows/flw_1/cancel","method":"POST","label":"Cancel","fields":[]}],
         "links":[{"rel":"self","href":"https://auth.example.com/v1/flows/flw_1"}],"messages":[],"meta":{"traceId":"trace-1"}}
        """

    static func step() throws -> Step {
        try WireCoding.makeDecoder().decode(Step.self, from: Data(stepJSON.utf8))
    }

    @Test func theScreenModelDrawsTheKindFromTheMapping() async throws {
        let model = KeywayScreenModel(keyway: try OneStepServer.keyway(), language: .english, screens: Self.screens)
        await model.start(identifier: "a@example.com")
        let screen = model.screen
        #expect(screen.kind == .step(Self.scanBadge))
        #expect(screen.title == "Scan your badge")
        #expect(screen.instruction == "Hold your badge to the reader")
        #expect(screen.displays == [.emphasis(label: "Reader", value: "Lobby 2")])
        #expect(screen.primaryAction?.actionName == "submitBadge")
        #expect(screen.inputs.map(\.name) == ["badge"])
        #expect(screen.secondaryActions.map(\.role) == [.cancel])
        // Without the mapping the same step is drawn from its actions alone.
        let plain = Screen(step: try Self.step(), language: .english)
        #expect(plain.title == "Continue" && plain.displays.isEmpty && plain.instruction == nil)
    }

    @Test func theCLIPrintsAndAsksWhatTheMappingSays() throws {
        let screen = Screen(step: try Self.step(), language: .english, screens: Self.screens)
        let lines = Lines()
        var terminal = Terminal()
        terminal.standardError = { text in lines.append(text) }
        ScreenPrinter(terminal: terminal, server: "https://auth.example.com").printHeader(screen)
        let input = try #require(screen.inputs.first)
        let question = Wording.question(for: input, on: screen.kind, words: TypedWord.words(of: screen))
        #expect(lines.text == "\nScan your badge\nReader: Lobby 2\n")
        #expect(question == "Badge number: ")
    }

    @Test func theHostedPageDrawsTheKindFromTheMapping() throws {
        let page = StepPage(
            strings: .english, csrfToken: "csrf-1", theme: HostedTheme(name: "Acme"), applicationName: "Acme Notes",
            now: Date(), screens: Self.screens
        ).page(for: try Self.step(), flash: nil)
        #expect(page.title == "Scan your badge")
        #expect(page.displays == [.text("Hold your badge to the reader"), .value(label: "Reader", value: "Lobby 2")])
        let primary = try #require(page.forms.first)
        #expect(primary.style == .primary && primary.submitLabel == "Check in")
        #expect(primary.fields.map(\.name) == ["badge"] && primary.fields.first?.label == "Badge number")
        #expect(primary.hidden.contains(HostedHiddenValue(name: "action", value: "submitBadge")))
        let html = HostedPageRenderer().render(page, strings: .english, themeStylesheetPath: nil)
        #expect(html.contains("Scan your badge") && html.contains("Lobby 2") && html.contains(#"name="badge""#))
        // Without the mapping the page draws the step from its actions alone.
        let plain = StepPage(
            strings: .english, csrfToken: "csrf-1", theme: HostedTheme(name: "Acme"), applicationName: "Acme Notes",
            now: Date()
        ).page(for: try Self.step(), flash: nil)
        #expect(plain.title == "Continue" && plain.displays.isEmpty)
    }
}

/// What the terminal wrote, in order.
private final class Lines: @unchecked Sendable {
    // @unchecked: `written` is only touched under `lock`.
    private let lock = NSLock()
    private var written = ""

    func append(_ text: String) { lock.withLock { written += text } }
    var text: String { lock.withLock { written } }
}

/// A server of one answer: every flow starts on the badge step (the test's seam for the SDK's
/// transport; the other two renderers take the step itself).
private struct OneStepServer: HTTPTransport {
    static func keyway() throws -> KeywayClient {
        try KeywayClient(
            configID: "cfg_test", baseURL: URL(string: "https://auth.example.com")!,
            options: KeywayOptions(completedSignIns: .handOver, transport: OneStepServer()))
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard request.method == "POST", request.url.path == "/v1/flows" else {
            return TransportResponse(status: 404, body: Data("no route \(request.url.path)".utf8))
        }
        return TransportResponse(
            status: 200, headers: ["Content-Type": "application/json"],
            body: Data(NewStepKindRenderingTests.stepJSON.utf8))
    }
}
