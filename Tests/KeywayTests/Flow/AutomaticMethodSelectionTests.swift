import Foundation
import Keyway
import KeywayProtocol
import Testing

@Suite("Automatic choice of the primary method")
struct AutomaticMethodSelectionTests {
    private let methodRoute = "POST /v1/flows/\(Steps.flowId)/method"

    private func script(selectMethod: String = Steps.selectMethod()) -> ScriptedTransport {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", status: 201, json: selectMethod)
        transport.on(methodRoute, json: Steps.enterCode())
        return transport
    }

    @Test(arguments: [
        ("ada@example.com", "m_email"), ("  Ada@Example.COM ", "m_email"), ("+41 79 123-45-67", "m_sms"),
        ("+14155550123", "m_sms"),
    ])
    func choosesFromTheIdentifier(identifier: String, methodId: String) async throws {
        let transport = script()
        let keyway = try makeKeyway(transport, policy: .automaticFromIdentifier)
        let recorder = UpdateRecorder(keyway.flow)
        await keyway.flow.start(flowType: .signin, identifier: identifier)

        let sent = transport.requests(to: methodRoute)
        #expect(sent.count == 1)
        #expect(sent.first?.jsonBody == ["methodId": methodId])
        #expect(sent.first?.headers["X-Keyway-Flow-Token"] == "kft_BvETqFHAtGKYiLAViG95Uea4R-_dx2OK0TLybcLvoNA")
        // The choice is never shown: loading, then the code prompt.
        #expect(!recorder.updates.contains { if case .selectMethod? = $0.prompt?.payload { true } else { false } })
        #expect(recorder.updates.contains(.loading))
        if case .enterCode? = keyway.flow.currentUpdate.prompt?.payload {} else {
            Issue.record("expected enterCode, got \(keyway.flow.currentUpdate)")
        }
    }

    @Test(arguments: ["ada", "+4179", "+41791234567890123", "ada@localhost"])
    func identifierWithoutAnObviousMethodShowsThePrompt(identifier: String) async throws {
        let transport = script()
        let keyway = try makeKeyway(transport, policy: .automaticFromIdentifier)
        await keyway.flow.start(flowType: .signin, identifier: identifier)
        #expect(transport.requests(to: methodRoute).isEmpty)
        if case .selectMethod? = keyway.flow.currentUpdate.prompt?.payload {} else { Issue.record("expected the prompt") }
    }

    @Test func noMatchingOptionShowsThePrompt() async throws {
        let onlyTotp = Steps.step(
            kind: "selectMethod",
            payload: #"{"methods": [{"id": "m_totp", "type": "totp", "label": "Authenticator app"}], "purpose": "primary", "skippable": false}"#,
            actions: [Steps.action("selectMethod", path: "/method"), Steps.cancel], flowToken: true)
        let transport = script(selectMethod: onlyTotp)
        let keyway = try makeKeyway(transport, policy: .automaticFromIdentifier)
        await keyway.flow.start(flowType: .signin, identifier: "ada@example.com")
        #expect(transport.requests(to: methodRoute).isEmpty)
        if case .selectMethod? = keyway.flow.currentUpdate.prompt?.payload {} else { Issue.record("expected the prompt") }
    }

    @Test func otherFlowsAndPurposesShowThePrompt() async throws {
        let signup = script()
        let keyway = try makeKeyway(signup, policy: .automaticFromIdentifier)
        await keyway.flow.start(flowType: .signup, identifier: "ada@example.com")
        #expect(signup.requests(to: methodRoute).isEmpty)
        if case .selectMethod? = keyway.flow.currentUpdate.prompt?.payload {} else { Issue.record("expected the prompt") }

        let secondFactor = script(selectMethod: Steps.selectMethod(purpose: "secondFactor"))
        let other = try makeKeyway(secondFactor, policy: .automaticFromIdentifier)
        await other.flow.start(flowType: .signin, identifier: "ada@example.com")
        #expect(secondFactor.requests(to: methodRoute).isEmpty)
    }

    @Test func manualPolicyShowsThePrompt() async throws {
        let transport = script()
        let keyway = try makeKeyway(transport)
        await keyway.flow.start(flowType: .signin, identifier: "ada@example.com")
        #expect(transport.requests(to: methodRoute).isEmpty)
        guard case .prompt(_, let prompt) = keyway.flow.currentUpdate,
            case .selectMethod(let methods, .primary, false) = prompt.payload
        else {
            Issue.record("expected the prompt")
            return
        }
        #expect(methods.count == 3)
    }

    @Test func refusedChoiceShowsThePromptWithTheReason() async throws {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", status: 201, json: Steps.selectMethod())
        transport.on(methodRoute, problem: "method_unavailable", status: 409, action: "selectMethod")
        let keyway = try makeKeyway(transport, policy: .automaticFromIdentifier)
        await keyway.flow.start(flowType: .signin, identifier: "ada@example.com")
        #expect(transport.requests(to: methodRoute).count == 1)
        guard case .prompt(let context, let prompt) = keyway.flow.currentUpdate, prompt.kind == .selectMethod else {
            Issue.record("expected the prompt, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(context.messages.last == Message(level: "error", code: "method_unavailable", text: "Refused: method_unavailable."))

        // The user then chooses by hand.
        transport.on(methodRoute, json: Steps.enterCode())
        await keyway.flow.selectMethod(id: "m_sms")
        #expect(transport.requests(to: methodRoute).last?.jsonBody == ["methodId": "m_sms"])
    }

    @Test func refusalThatEndsTheFlowIsTheError() async throws {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", status: 201, json: Steps.selectMethod())
        transport.on(methodRoute, problem: "flow_expired", status: 410, action: "restartFlow")
        let keyway = try makeKeyway(transport, policy: .automaticFromIdentifier)
        await keyway.flow.start(flowType: .signin, identifier: "ada@example.com")
        #expect(keyway.flow.currentUpdate.errorCode == .flowExpired)
    }
}
