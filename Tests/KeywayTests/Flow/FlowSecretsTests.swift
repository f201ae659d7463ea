import Foundation
@testable import Keyway
import KeywayProtocol
import Testing

@Suite("Secrets of the new steps stay out of logs and events")
struct FlowSecretsTests {
    @Test func passwordsCodesAndTotpSecretsAreNeverLoggedNorInEvents() async throws {
        let flowPath = "/v1/flows/\(Steps.flowId)"
        let password = "correct-horse-battery-staple"
        let totpCode = "204831"
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", status: 201, json: Steps.setupTotp(flowToken: true))
        transport.on("POST \(flowPath)/totp", json: Steps.enterPassword())
        transport.on("POST \(flowPath)/password", json: Steps.form())
        transport.on("POST \(flowPath)/form", json: Steps.completed)
        let sink = MemoryLogSink()
        let keyway = try makeKeyway(transport, logging: KeywayLogging(level: .trace, sinks: [sink]))
        let delegate = RecordingEventDelegate()
        keyway.eventDelegate = delegate

        await keyway.flow.start(flowType: .signin, identifier: "ada@example.com")
        await keyway.flow.submitTotp(totpCode)
        await keyway.flow.submitPassword(password)
        await keyway.flow.submitForm(["displayName": "Ada", "country": "ch", "terms": "yes"])
        if case .completed = keyway.flow.currentUpdate {} else { Issue.record("expected completion") }

        let logged = sink.records.map { record in
            record.message + " " + record.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }.joined(separator: "\n")
        #expect(!logged.isEmpty)
        let events = delegate.events.map { "\($0.name) \($0.data)" }.joined(separator: "\n")
        #expect(events.contains("signInCompleted"))
        for secret in [password, totpCode, Steps.totpSecret, "kft_BvETqFHAtGKYiLAViG95Uea4R", "kac_Tgd44"] {
            #expect(!logged.contains(secret), "logged: \(secret)")
            #expect(!events.contains(secret), "in an event: \(secret)")
        }
    }
}

@Suite("Account management")
struct AccountManagementTests {
    @Test func startSendsTheAccessTokenAsBearer() async throws {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", status: 201, json: Steps.manageAccount(flowToken: true))
        let keyway = try makeKeyway(transport)
        await keyway.startAccountManagement(accessToken: Sensitive("eyJ.access.token"), identifier: "ada@example.com")

        let start = try #require(transport.requests(to: "POST /v1/flows").first)
        #expect(start.headers["Authorization"] == "Bearer eyJ.access.token")
        let body = try #require(start.body)
        let request = try WireCoding.makeDecoder().decode(StartFlowRequest.self, from: body)
        #expect(request.flowType == .accountManage)
        #expect(request.identifier == "ada@example.com")
        guard case .manageAccount(_, let operations)? = keyway.flow.currentUpdate.prompt?.payload else {
            Issue.record("expected manageAccount, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(operations.map(\.name) == ["removeTotp", "setupSms", "finish"])

        // Later requests carry the flow token, not the access token.
        transport.on("POST /v1/flows/\(Steps.flowId)/account/sms", json: Steps.setupSms())
        await keyway.flow.perform(operation: "setupSms")
        let later = try #require(transport.requests(to: "POST /v1/flows/\(Steps.flowId)/account/sms").first)
        #expect(later.headers["Authorization"] == nil)
        #expect(later.headers["X-Keyway-Flow-Token"] == "kft_BvETqFHAtGKYiLAViG95Uea4R-_dx2OK0TLybcLvoNA")
    }

    @Test func unusableAccessTokenFailsLocally() async throws {
        let transport = ScriptedTransport()
        let keyway = try makeKeyway(transport)
        await keyway.startAccountManagement(accessToken: Sensitive(""), identifier: "ada@example.com")
        #expect(keyway.flow.currentUpdate.errorCode == .invalidAccessToken)
        #expect(transport.requests.isEmpty)
    }

    @Test func withoutASignedInSessionItThrows() async throws {
        let keyway = try makeKeyway(ScriptedTransport())
        await #expect(throws: SessionError.noAccessTokenPresent) {
            try await keyway.session.manageAccount()
        }
    }
}
