import Foundation
import Keyway
import KeywayProtocol
import KeywayUI
@testable import KeywayPresentation
import Testing

/// Step documents of signing in with another provider, for the screen tests.
enum FederationSteps {
    static let state = "st_9rT1mQ0yW4hJ8cXv2LpN6bZs3Fk7Gd5Ae0Uo1Ri4Ty8"
    static let url = "https://accounts.example.com/authorize?response_type=code&client_id=kw&state=\(state)&nonce=n1"
    static let provider = #"{"id":"google","label":"Continue with Google","iconURL":"https://cdn.example.com/g.svg"}"#

    static let redirect = Steps.json(
        "redirect", payload: #"{"url":"\#(url)","returnScheme":"com.example.app","provider":\#(provider)}"#,
        actions: [
            Steps.action(
                "callback", "federation/callback", label: "Continue",
                fields: #"[{"name":"url","type":"text","required":false},{"name":"code","type":"text","required":false},{"name":"state","type":"text","required":false}]"#)
        ])

    static let linkAccount = Steps.json(
        "linkAccount", payload: #"{"provider":\#(provider),"identifierHint":"a•••@example.com"}"#,
        actions: [Steps.action("continue", "federation/link", label: "Sign in to link")])

    static let choice = Steps.json(
        "selectMethod",
        payload: """
            {"methods":[{"id":"m_email","type":"emailOtp","label":"Email a code","destination":"a•••@example.com"},
            {"id":"federation:google","type":"federation","label":"Google","provider":\(provider)},
            {"id":"federation:corp","type":"federation","label":"Corp","provider":{"id":"corp","label":"Sign in with Corp","iconURL":"http://corp.example.com/logo.png"}}],
            "purpose":"primary","skippable":false}
            """,
        actions: [Steps.action("selectMethod", "method", label: "Choose")])
}

/// A browser that comes back with a given URL, or fails, and records what it opened.
final class ScriptedBrowser: BrowserSession, @unchecked Sendable {
    // @unchecked: `opened` is only touched under `lock`; `result` is set before use.
    private let lock = NSLock()
    private var opened: [(url: URL, callbackURL: URL)] = []
    let result: Result<URL, BrowserSignInError>

    init(_ result: Result<URL, BrowserSignInError>) { self.result = result }

    var pages: [(url: URL, callbackURL: URL)] { lock.withLock { opened } }

    func authorize(url: URL, callbackURL: URL) async throws -> URL {
        lock.withLock { opened.append((url, callbackURL)) }
        return try result.get()
    }
}

@Suite("Screens of signing in with another provider")
struct FederationScreenTests {
    @Test func theRedirectScreenOpensTheProvidersPage() throws {
        let screen = Steps.screen(try Steps.step("redirect", payload: nil, actions: []))
        // Without its payload the step is drawn from its actions alone.
        #expect(screen.browser == nil)

        let redirect = Steps.screen(
            try WireCoding.makeDecoder().decode(Step.self, from: Data(FederationSteps.redirect.utf8)))
        #expect(redirect.kind == .step(.redirect))
        #expect(redirect.title == "Sign in with another provider")
        #expect(
            redirect.browser
                == ScreenBrowser(
                    url: URL(string: FederationSteps.url)!, returnScheme: "com.example.app",
                    provider: FederationProvider(id: "google", label: "Continue with Google", iconURL: "https://cdn.example.com/g.svg")))
        #expect(redirect.primaryAction?.role == .openBrowser)
        #expect(redirect.primaryAction?.label == "Continue with Google")
        #expect(redirect.primaryAction?.iconURL == URL(string: "https://cdn.example.com/g.svg"))
        #expect(redirect.inputs.isEmpty, "the callback's fields are not for the user")
        #expect(redirect.secondaryActions.map(\.id) == ["cancel"])
        #expect(redirect.messages.map(\.code) == ["redirect"])
    }

    @Test func providerChoicesAreButtonsWithTheirLabelAndHttpsIcon() throws {
        let screen = Steps.screen(try WireCoding.makeDecoder().decode(Step.self, from: Data(FederationSteps.choice.utf8)))
        let google = try #require(screen.action("selectMethod:federation:google"))
        #expect(google.label == "Continue with Google")
        #expect(google.iconURL == URL(string: "https://cdn.example.com/g.svg"))
        #expect(google.parameters == ["methodId": "federation:google"])
        let corp = try #require(screen.action("selectMethod:federation:corp"))
        #expect(corp.label == "Sign in with Corp")
        #expect(corp.iconURL == nil, "an icon that is not https is not drawn")
        #expect(screen.action("selectMethod:m_email")?.iconURL == nil)
    }

    @Test func theLinkAccountScreenSaysWhichAccountAndGoesOn() throws {
        let screen = Steps.screen(
            try WireCoding.makeDecoder().decode(Step.self, from: Data(FederationSteps.linkAccount.utf8)))
        #expect(screen.title == "Sign in to link your account")
        #expect(
            screen.messages.first { $0.code == "linkAccount" }?.text
                == "An account already uses this address (a•••@example.com). Sign in to it to link your Google sign-in to it.")
        #expect(screen.primaryAction?.actionName == "continue")
        #expect(screen.primaryAction?.label == "Sign in to link")
        #expect(screen.browser == nil)
    }

    @Test func theServersOwnSentenceIsShownOnceInsteadOfTheScreensOwn() throws {
        let step = Steps.json(
            "linkAccount", payload: #"{"provider":\#(FederationSteps.provider),"identifierHint":"a•••@example.com"}"#,
            actions: [Steps.action("continue", "federation/link", label: "Sign in to link")],
            messages: #"[{"level":"info","code":"linkAccount","text":"Sign in to a•••@example.com to link Google."}]"#)
        let screen = Steps.screen(try WireCoding.makeDecoder().decode(Step.self, from: Data(step.utf8)))
        #expect(screen.messages.filter { $0.code == "linkAccount" }.map(\.text) == ["Sign in to a•••@example.com to link Google."])
    }
}

@Suite("The screen model and another provider's page")
@MainActor
struct FederationScreenModelTests {
    private let callbackRoute = "POST /v1/flows/flw_1/federation/callback"

    @Test func theBrowsersReturnIsHandedToTheFlow() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: FederationSteps.redirect)
        server.on(callbackRoute, step: ModelSteps.code("t2"))
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")
        #expect(model.screen.kind == .step(.redirect))

        // The open-browser button is the renderer's: performing it sends nothing.
        await model.perform(try #require(model.screen.primaryAction))
        #expect(server.bodies(to: callbackRoute).isEmpty)

        let returned = URL(string: "com.example.app://callback?state=\(FederationSteps.state)")!
        let browser = ScriptedBrowser(.success(returned))
        await model.openBrowser(using: browser)
        #expect(browser.pages.map(\.url) == [URL(string: FederationSteps.url)!])
        #expect(browser.pages.map(\.callbackURL) == [URL(string: "com.example.app://callback")!])
        #expect(server.bodies(to: callbackRoute) == [["url": returned.absoluteString]])
        #expect(model.screen.kind == .step(.enterCode))
    }

    @Test func aForeignReturnIsRefusedAndTheScreenStays() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: FederationSteps.redirect)
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")

        await model.oauthCallback(url: URL(string: "com.example.app://callback?state=st_forged")!)
        #expect(server.bodies(to: callbackRoute).isEmpty)
        #expect(model.screen.kind == .step(.redirect))
        #expect(model.screen.banner?.code == .invalidCallback)
        #expect(model.screen.primaryAction?.role == .openBrowser, "the user can open the page again")
    }

    @Test func aClosedBrowserLeavesTheScreenWithAMessage() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: FederationSteps.redirect)
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")

        await model.openBrowser(using: ScriptedBrowser(.failure(.cancelled)))
        #expect(model.screen.kind == .step(.redirect))
        #expect(model.screen.messages.last?.code == "browserCancelled")
        #expect(server.bodies(to: callbackRoute).isEmpty)

        await model.openBrowser(using: ScriptedBrowser(.failure(.browserFailed("no window"))))
        #expect(model.screen.messages.compactMap(\.code).filter { $0.hasPrefix("browser") } == ["browserFailed"])
    }
}
