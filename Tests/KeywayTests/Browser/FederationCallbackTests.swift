import Foundation
@testable import Keyway
import KeywayProtocol
import Testing

@Suite("Signing in with another provider")
struct FederationCallbackTests {
    private let callbackRoute = "POST /v1/flows/\(Steps.flowId)/federation/callback"

    /// A flow started on `first`.
    private func started(on first: String) async throws -> (KeywayClient, ScriptedTransport) {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", status: 201, json: first)
        let keyway = try makeKeyway(transport)
        await keyway.flow.start(flowType: .signin, identifier: "ada@example.com")
        return (keyway, transport)
    }

    private var payload: RedirectPayload {
        RedirectPayload(
            url: Steps.providerURL, returnScheme: "com.example.app",
            provider: FederationProvider(id: "google", label: "Continue with Google"))
    }

    // MARK: Prompts

    @Test func redirectStepIsARedirectPrompt() throws {
        let prompt = Prompt(step: try Steps.decode(Steps.redirect(returnScheme: "Com.Example.App", flowToken: true)))
        #expect(
            prompt
                == .redirect(
                    url: URL(string: Steps.providerURL)!, returnScheme: "com.example.app",
                    provider: FederationProvider(
                        id: "google", label: "Continue with Google", iconURL: "https://cdn.example.com/google.svg")))
    }

    @Test(arguments: ["javascript:alert(1)", "com.evil.app://authorize?state=x", "/relative/authorize", "https:///nohost"])
    func redirectToSomethingABrowserMustNotOpenIsUnrecognized(url: String) throws {
        let prompt = Prompt(step: try Steps.decode(Steps.redirect(url: url)))
        #expect(prompt == .unrecognized(kind: .redirect))
    }

    @Test func linkAccountStepIsALinkAccountPrompt() throws {
        let prompt = Prompt(step: try Steps.decode(Steps.linkAccount()))
        #expect(
            prompt
                == .linkAccount(
                    provider: FederationProvider(
                        id: "google", label: "Continue with Google", iconURL: "https://cdn.example.com/google.svg"),
                    identifierHint: "a•••@example.com"))
    }

    @Test func providerChoicesCarryTheirProvider() throws {
        guard case .selectMethod(let methods, _, _)? = Prompt(step: try Steps.decode(Steps.selectProvider()))?.payload else {
            Issue.record("expected a method choice")
            return
        }
        #expect(methods.map(\.type) == [.emailOtp, .federation, .federation])
        #expect(methods[1].provider?.label == "Continue with Google")
        #expect(methods[0].provider == nil)
    }

    // MARK: The parser

    @Test func callbackURLOfTheFlowIsAccepted() throws {
        let url = URL(string: "com.example.app://federation?state=\(Steps.providerState)")!
        #expect(try RedirectCallback(url: url, for: payload).content == .url(url))
        // The scheme is compared without regard to case, as schemes are.
        let upper = URL(string: "COM.EXAMPLE.APP:/cb?state=\(Steps.providerState)&result=ok")!
        #expect(try RedirectCallback(url: upper, for: payload).content == .url(upper))
    }

    @Test func callbackOfAnotherSchemeIsRefused() {
        let url = URL(string: "com.evil.app://federation?state=\(Steps.providerState)")!
        #expect(throws: RedirectCallbackError.foreignScheme(expected: "com.example.app", received: "com.evil.app")) {
            try RedirectCallback(url: url, for: payload)
        }
        #expect(throws: RedirectCallbackError.foreignScheme(expected: "com.example.app", received: "https")) {
            try RedirectCallback(url: URL(string: "https://evil.example/cb?state=\(Steps.providerState)")!, for: payload)
        }
    }

    @Test func callbackWithAnotherMissingOrRepeatedStateIsRefused() {
        #expect(throws: RedirectCallbackError.stateMismatch) {
            try RedirectCallback(url: URL(string: "com.example.app://cb?state=st_other")!, for: payload)
        }
        #expect(throws: RedirectCallbackError.stateMismatch) {
            try RedirectCallback(url: URL(string: "com.example.app://cb?state=\(Steps.providerState)x")!, for: payload)
        }
        #expect(throws: RedirectCallbackError.missingState) {
            try RedirectCallback(url: URL(string: "com.example.app://cb?code=abc")!, for: payload)
        }
        #expect(throws: RedirectCallbackError.malformed("state is given twice.")) {
            try RedirectCallback(
                url: URL(string: "com.example.app://cb?state=st_other&state=\(Steps.providerState)")!, for: payload)
        }
    }

    @Test func stepWithoutStateAcceptsNothing() {
        var withoutState = payload
        withoutState.url = "https://accounts.example.com/o/authorize?client_id=kw-client"
        #expect(throws: RedirectCallbackError.noExpectedState) {
            try RedirectCallback(url: URL(string: "com.example.app://cb?state=")!, for: withoutState)
        }
        #expect(throws: RedirectCallbackError.noExpectedState) {
            try RedirectCallback(code: "c", state: "", for: withoutState)
        }
    }

    @Test func codeAndStateAreCheckedToo() throws {
        #expect(
            try RedirectCallback(code: "4/0AfJohX", state: Steps.providerState, for: payload).content
                == .code(Sensitive("4/0AfJohX"), state: Steps.providerState))
        #expect(throws: RedirectCallbackError.stateMismatch) {
            try RedirectCallback(code: "4/0AfJohX", state: "st_other", for: payload)
        }
        #expect(throws: RedirectCallbackError.missingCode) {
            try RedirectCallback(code: "", state: Steps.providerState, for: payload)
        }
    }

    // MARK: The flow calls

    @Test func oauthCallbackSendsTheURLAndMovesOn() async throws {
        let (keyway, transport) = try await started(on: Steps.redirect(flowToken: true))
        transport.on(callbackRoute, json: Steps.enterTotp())
        let url = URL(string: "com.example.app://federation?state=\(Steps.providerState)")!
        await keyway.flow.oauthCallback(url: url)
        #expect(transport.requests(to: callbackRoute).first?.jsonBody == ["url": url.absoluteString])
        #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
    }

    @Test func oauthCallbackWithCodeAndStateSendsBoth() async throws {
        let (keyway, transport) = try await started(on: Steps.redirect(flowToken: true))
        transport.on(callbackRoute, json: Steps.completed)
        await keyway.flow.oauthCallback(code: "4/0AfJohX", state: Steps.providerState)
        #expect(transport.requests(to: callbackRoute).first?.jsonBody == ["code": "4/0AfJohX", "state": Steps.providerState])
        if case .completed = keyway.flow.currentUpdate {} else { Issue.record("expected completion") }
    }

    @Test(arguments: [
        "com.evil.app://federation?state=\(Steps.providerState)",
        "com.example.app://federation?state=st_forged",
        "com.example.app://federation",
    ])
    func foreignCallbackIsRefusedBeforeAnyRequest(url: String) async throws {
        let (keyway, transport) = try await started(on: Steps.redirect(flowToken: true))
        await keyway.flow.oauthCallback(url: URL(string: url)!)
        guard case .error(.invalidCallback, .retryInput, _, false, let problem, _) = keyway.flow.currentUpdate else {
            Issue.record("expected a local invalid_callback error, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(problem?.status == 0)
        #expect(transport.requests.count == 1)
        // The flow is still at the redirect prompt: the real return can follow.
        guard case .redirect? = keyway.flow.currentPrompt?.prompt.payload else {
            Issue.record("the redirect prompt is gone")
            return
        }
        transport.on(callbackRoute, json: Steps.completed)
        await keyway.flow.oauthCallback(url: URL(string: "com.example.app://federation?state=\(Steps.providerState)")!)
        #expect(transport.requests(to: callbackRoute).count == 1)
    }

    @Test func forgedCodeStateIsRefusedBeforeAnyRequest() async throws {
        let (keyway, transport) = try await started(on: Steps.redirect(flowToken: true))
        await keyway.flow.oauthCallback(code: "4/0AfJohX", state: "st_forged")
        #expect(keyway.flow.currentUpdate.errorCode == .invalidCallback)
        #expect(transport.requests.count == 1)
    }

    @Test func oauthCallbackOnAnotherStepIsUnavailable() async throws {
        let (keyway, transport) = try await started(on: Steps.selectMethod())
        await keyway.flow.oauthCallback(url: URL(string: "com.example.app://federation?state=\(Steps.providerState)")!)
        #expect(keyway.flow.currentUpdate.errorCode == .actionUnavailable)
        #expect(transport.requests.count == 1)
    }

    @Test func continueLinkingPerformsTheStepsContinue() async throws {
        let (keyway, transport) = try await started(on: Steps.linkAccount(flowToken: true))
        transport.on("POST /v1/flows/\(Steps.flowId)/federation/link", json: Steps.enterCode())
        await keyway.flow.continueLinking()
        #expect(transport.requests(to: "POST /v1/flows/\(Steps.flowId)/federation/link").count == 1)
        guard case .enterCode? = keyway.flow.currentUpdate.prompt?.payload else {
            Issue.record("expected the existing account's sign-in, got \(keyway.flow.currentUpdate)")
            return
        }
    }

    @Test func theServersRefusalOfACallbackIsItsProblem() async throws {
        let (keyway, transport) = try await started(on: Steps.redirect(flowToken: true))
        transport.on(callbackRoute, problem: "federation_failed", status: 400, action: "selectMethod")
        await keyway.flow.oauthCallback(url: URL(string: "com.example.app://federation?state=\(Steps.providerState)")!)
        #expect(keyway.flow.currentUpdate.errorCode == ProblemCode(rawValue: "federation_failed"))
    }
}
