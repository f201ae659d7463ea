import Foundation
import Keyway
import KeywayProtocol
import Testing

@Suite("Answers to the prompts")
struct FlowAnswerTests {
    private let flowPath = "/v1/flows/\(Steps.flowId)"

    /// A flow started on `first`.
    private func started(on first: String, transport: ScriptedTransport = ScriptedTransport()) async throws -> (
        KeywayClient, ScriptedTransport
    ) {
        transport.on("POST /v1/flows", status: 201, json: first)
        let keyway = try makeKeyway(transport)
        await keyway.flow.start(flowType: .signin, identifier: "ada@example.com")
        return (keyway, transport)
    }

    @Test func selectMethodAndSkip() async throws {
        let (keyway, transport) = try await started(on: Steps.selectMethod(skippable: true))
        transport.on("POST \(flowPath)/method", json: Steps.enterCode(channel: "sms"))
        await keyway.flow.selectMethod(id: "m_sms")
        #expect(transport.requests(to: "POST \(flowPath)/method").first?.jsonBody == ["methodId": "m_sms"])
        guard case .enterCode(_, _, _, _, .sms)? = keyway.flow.currentUpdate.prompt?.payload else {
            Issue.record("expected an SMS code prompt")
            return
        }

        let (other, otherTransport) = try await started(on: Steps.selectMethod(skippable: true))
        otherTransport.on("POST \(flowPath)/skip", json: Steps.completed)
        await other.flow.skip()
        #expect(otherTransport.requests(to: "POST \(flowPath)/skip").first?.jsonBody == [:])
        if case .completed = other.flow.currentUpdate {} else { Issue.record("expected completion") }
    }

    @Test func unknownMethodIdIsRefusedLocally() async throws {
        let (keyway, transport) = try await started(on: Steps.selectMethod())
        await keyway.flow.selectMethod(id: "m_nope")
        #expect(keyway.flow.currentUpdate.errorCode == .invalidRequest)
        #expect(transport.requests.count == 1)
    }

    @Test func phoneTotpAndPassword() async throws {
        let (keyway, transport) = try await started(on: Steps.setupSms())
        transport.on("POST \(flowPath)/phone", json: Steps.setupTotp())
        await keyway.flow.submitPhone("  +41 79 123 45 67 ")
        #expect(transport.requests(to: "POST \(flowPath)/phone").first?.jsonBody == ["phone": "+41 79 123 45 67"])

        transport.on("POST \(flowPath)/totp", json: Steps.enterPassword())
        await keyway.flow.submitTotp(" 123 456 ")
        #expect(transport.requests(to: "POST \(flowPath)/totp").first?.jsonBody == ["code": "123456"])

        transport.on("POST \(flowPath)/password", json: Steps.completed)
        await keyway.flow.submitPassword(" correct horse battery ")
        #expect(
            transport.requests(to: "POST \(flowPath)/password").first?.jsonBody == ["password": " correct horse battery "])
        if case .completed = keyway.flow.currentUpdate {} else { Issue.record("expected completion") }
    }

    @Test func submitFormSendsEveryFieldNormalized() async throws {
        let (keyway, transport) = try await started(on: Steps.form())
        transport.on("POST \(flowPath)/form", json: Steps.completed)
        await keyway.flow.submitForm(["displayName": "Ada", "country": "fr", "terms": "y", "formVersion": "x"])
        #expect(
            transport.requests(to: "POST \(flowPath)/form").first?.jsonBody == [
                "displayName": "Ada", "country": "fr", "newsletter": "false", "terms": "true", "zip": "",
                "formVersion": "v3",
            ])
    }

    @Test func invalidFormIsRefusedLocallyWithEveryField() async throws {
        let (keyway, transport) = try await started(on: Steps.form())
        await keyway.flow.submitForm(["country": "de"])
        guard case .error(.invalidRequest, .retryInput, let message, _, let problem, _) = keyway.flow.currentUpdate else {
            Issue.record("expected a local error, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(message == "Display name: This field is required.")
        #expect(problem?.invalidFields?.map(\.name) == ["displayName", "country", "terms"])
        #expect(transport.requests.count == 1)
        // The step is still there: a corrected form goes through.
        transport.on("POST \(flowPath)/form", json: Steps.completed)
        await keyway.flow.submitForm(["displayName": "Ada", "country": "ch", "terms": "true"])
        #expect(transport.requests(to: "POST \(flowPath)/form").count == 1)
    }

    @Test func manageAccountOperationsUseTheirAction() async throws {
        let (keyway, transport) = try await started(on: Steps.manageAccount())
        transport.on("DELETE \(flowPath)/account/totp", json: Steps.manageAccount())
        await keyway.flow.perform(operation: "removeTotp")
        #expect(transport.requests(to: "DELETE \(flowPath)/account/totp").first?.body == nil)

        transport.on("POST \(flowPath)/account/finish", TransportResponse(status: 204))
        await keyway.flow.perform(operation: "finish")
        #expect(transport.requests(to: "POST \(flowPath)/account/finish").count == 1)
        #expect(keyway.flow.currentUpdate == .idle)
    }

    @Test func unrecognizedStepsAnswerThroughTheirActions() async throws {
        let challenge = Steps.step(
            kind: "pushChallenge", payload: #"{"pollInterval": 2}"#,
            actions: [
                Steps.action(
                    "confirm", path: "/approval", fields: #"[{"name": "answer", "type": "text", "required": true}]"#),
                Steps.cancel,
            ])
        let (keyway, transport) = try await started(on: challenge)
        guard case .prompt(let context, let prompt) = keyway.flow.currentUpdate, case .unrecognized = prompt.payload,
            let confirm = context.step.action(named: "confirm")
        else {
            Issue.record("expected an unrecognized prompt")
            return
        }
        transport.on("POST \(flowPath)/approval", json: Steps.completed)
        await keyway.flow.submit(action: confirm, parameters: ["answer": "yes"])
        #expect(transport.requests(to: "POST \(flowPath)/approval").first?.jsonBody == ["answer": "yes"])
    }

    @Test func unavailableActionsFailLocallyBeforeAnyRequest() async throws {
        let (keyway, transport) = try await started(on: Steps.enterCode())
        let calls: [(String, @Sendable (KeywayFlow) async -> Void)] = [
            ("This step does not offer a choice of method.", { await $0.selectMethod(id: "m_email") }),
            ("This step cannot be skipped.", { await $0.skip() }),
            ("This step does not ask for a phone number.", { await $0.submitPhone("+14155550123") }),
            ("This step does not ask for an authenticator code.", { await $0.submitTotp("123456") }),
            ("This step does not ask for a password.", { await $0.submitPassword("secret-password") }),
            ("This step has no form to submit.", { await $0.submitForm(["a": "b"]) }),
            ("This step does not offer the operation finish.", { await $0.perform(operation: "finish") }),
        ]
        for (sentence, call) in calls {
            await call(keyway.flow)
            guard case .error(.actionUnavailable, _, let message, false, let problem, nil) = keyway.flow.currentUpdate else {
                Issue.record("expected action_unavailable, got \(keyway.flow.currentUpdate)")
                continue
            }
            #expect(message == sentence)
            #expect(problem?.status == 0)
        }
        #expect(transport.requests.count == 1)
        // The step is untouched: the code prompt still answers.
        transport.on("POST \(flowPath)/code", json: Steps.completed)
        await keyway.flow.submitCode("123456")
        if case .completed = keyway.flow.currentUpdate {} else { Issue.record("expected completion") }
    }

    @Test func callsWithoutAFlowFailLocally() async throws {
        let transport = ScriptedTransport()
        let keyway = try makeKeyway(transport)
        await keyway.flow.submitPassword("secret-password")
        #expect(keyway.flow.currentUpdate.errorCode == .noActiveFlow)
        await keyway.flow.perform(operation: "setupTotp")
        #expect(keyway.flow.currentUpdate.errorCode == .noActiveFlow)
        #expect(transport.requests.isEmpty)
    }
}
