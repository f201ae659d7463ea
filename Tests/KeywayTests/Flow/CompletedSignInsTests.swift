import Foundation
@testable import Keyway
import KeywayProtocol
import Testing

/// A completed flow is redeemed and saved in the client's session before the app hears of it,
/// unless the options hand completions over.
@Suite("Completed sign-ins are saved in the client's session")
struct CompletedSignInsTests {
    let checks = FlowStartOptionsTests()

    /// A sign-in started on a client that saves completions, its code step answered next.
    private func startedSignIn() async throws -> (ScriptedProvider, KeywayClient, nonce: String) {
        let provider = ScriptedProvider()
        provider.serveMetadata()
        provider.transport.on("POST /v1/flows", json: Steps.enterCode(flowToken: true))
        provider.transport.on("POST \(checks.flowPath)/code", json: checks.completed(state: nil))
        let keyway = try provider.keyway(completedSignIns: .saveToSession)
        #expect(keyway.options.completedSignIns == .saveToSession)
        await keyway.flow.start(identifier: "ada@example.com")
        let nonce = try #require(try checks.startBody(provider.transport)["nonce"] as? String)
        return (provider, keyway, nonce)
    }

    @Test func theCompletionIsSavedBeforeItIsReported() async throws {
        let (provider, keyway, nonce) = try await startedSignIn()
        try provider.serveTokens(nonce: nonce)
        let events = RecordingEventDelegate()
        keyway.eventDelegate = events
        await keyway.flow.submitCode("123456")
        guard case .completed = keyway.flow.currentUpdate else {
            Issue.record("expected completion, got \(keyway.flow.currentUpdate)")
            return
        }
        // Saved when reported: the session's current account and the completion's tokens.
        #expect(try await keyway.session.currentAccount() == "usr_1")
        let completion = try #require(await keyway.flow.completion)
        #expect(completion.tokens?.idToken.subject == "usr_1")
        #expect(try await keyway.session.accessToken() == completion.tokens?.response.accessToken)
        #expect(provider.tokenForm()["code"] == "ac_1")
        #expect(events.events.contains { $0.name == .signInCompleted })
    }

    @Test func aCodeThatCannotBeRedeemedEndsTheFlowAndSavesNothing() async throws {
        let (provider, keyway, _) = try await startedSignIn()
        try provider.serveTokens(nonce: "another sign-in's nonce")
        await keyway.flow.submitCode("123456")
        guard case .error(.signInNotSaved, .restartFlow, let message, false, nil, _) = keyway.flow.currentUpdate else {
            Issue.record("expected sign_in_not_saved, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(message.hasPrefix("The sign-in completed but could not be saved:"))
        #expect(try await keyway.session.currentAccount() == nil)
        #expect(await keyway.flow.completion?.tokens == nil)
    }

    @Test func aHandedOverCompletionIsNotRedeemed() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata()
        provider.transport.on("POST /v1/flows", json: Steps.enterCode(flowToken: true))
        provider.transport.on("POST \(checks.flowPath)/code", json: checks.completed(state: nil))
        let keyway = try provider.keyway(completedSignIns: .handOver)
        await keyway.flow.start(identifier: "ada@example.com")
        await keyway.flow.submitCode("123456")
        guard case .completed = keyway.flow.currentUpdate else {
            Issue.record("expected completion, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(provider.transport.requests(to: "POST /oauth2/token").isEmpty)
        #expect(try await keyway.session.currentAccount() == nil)
        #expect(await keyway.flow.completion?.tokens == nil)
    }

    @Test func aClientThatSavesItsSignInsIsFreedWithItsSession() async throws {
        weak var client: KeywayClient?
        weak var session: KeywaySession?
        do {
            let (provider, keyway, nonce) = try await startedSignIn()
            try provider.serveTokens(nonce: nonce)
            await keyway.flow.submitCode("123456")
            #expect(try await keyway.session.currentAccount() == "usr_1")
            client = keyway
            session = keyway.session
        }
        #expect(client == nil)
        #expect(session == nil)
    }

    @Test func theDefaultStorageKeepsNothingOnLinux() throws {
        #if !canImport(Security)
            #expect(KeywayOptions().storage is InMemorySecureStorage)
        #endif
        #expect(KeywayOptions().completedSignIns == .saveToSession)
    }
}
