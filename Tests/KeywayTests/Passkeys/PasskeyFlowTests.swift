import Foundation
import Keyway
import KeywaySoftwarePasskeys
import KeywayCBOR
import KeywayJOSE
import KeywayProtocol
import Testing

/// An authenticator that fails with `error`.
struct FailingPasskeyAuthenticator: PasskeyAuthenticator {
    let error: any Error & Sendable

    func makeCredential(_ options: PublicKeyCredentialCreationOptions) async throws -> PasskeyRegistrationResponse {
        throw error
    }

    func getAssertion(_ options: PublicKeyCredentialRequestOptions) async throws -> PasskeyAssertionResponse {
        throw error
    }
}

/// An authenticator during whose ceremony the app abandons the flow, then answers anyway.
struct AbandoningPasskeyAuthenticator: PasskeyAuthenticator {
    let flow: KeywayFlow
    let inner: SoftwarePasskeyAuthenticator

    func makeCredential(_ options: PublicKeyCredentialCreationOptions) async throws -> PasskeyRegistrationResponse {
        await flow.reset()
        return try await inner.makeCredential(options)
    }

    func getAssertion(_ options: PublicKeyCredentialRequestOptions) async throws -> PasskeyAssertionResponse {
        await flow.reset()
        return try await inner.getAssertion(options)
    }
}

@Suite("Passkey answers, sign-in and account management")
struct PasskeyFlowTests {
    private let flowPath = "/v1/flows/\(Steps.flowId)"
    private var authenticateRoute: String { "POST \(flowPath)/passkey/authenticate" }
    private var registerRoute: String { "POST \(flowPath)/passkey/register" }

    /// A flow started on `first`.
    private func started(on first: String) async throws -> (KeywayClient, ScriptedTransport) {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", status: 201, json: first)
        let keyway = try makeKeyway(transport)
        await keyway.flow.start(flowType: .signin, identifier: "ada@example.com")
        return (keyway, transport)
    }

    /// A software authenticator that holds a passkey of the fixtures' relying party.
    private func authenticatorWithAPasskey() async throws -> (SoftwarePasskeyAuthenticator, PasskeyRegistrationResponse) {
        let authenticator = SoftwarePasskeyAuthenticator()
        let made = try await authenticator.makeCredential(PasskeyOptions.creation())
        return (authenticator, made)
    }

    private func challenge(of clientDataJSON: String) throws -> String? {
        let json = try #require(Base64URL.decode(clientDataJSON))
        return (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["challenge"] as? String
    }

    private func body<T: Decodable>(_ type: T.Type, of request: TransportRequest?) throws -> T {
        try WireCoding.makeDecoder().decode(type, from: try #require(request?.body))
    }

    @Test func aSignatureIsPostedAsTheAuthenticatorsJSON() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyAuthenticate(flowToken: true))
        let (authenticator, made) = try await authenticatorWithAPasskey()
        transport.on(authenticateRoute, json: Steps.completed)

        await keyway.flow.authenticateWithPasskey(using: authenticator)

        let request = try #require(transport.requests(to: authenticateRoute).first)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers[ProtocolHeader.flowToken] == "kft_BvETqFHAtGKYiLAViG95Uea4R-_dx2OK0TLybcLvoNA")
        let sent = try body(AuthenticatePasskeyRequest.self, of: request)
        #expect(sent.credential.id == made.id)
        #expect(sent.credential.rawID == made.id)
        #expect(sent.credential.type == "public-key")
        #expect(sent.credential.response.userHandle == PasskeyOptions.userHandle)
        #expect(try challenge(of: sent.credential.response.clientDataJSON) == Steps.firstChallenge)
        // The wire form is WebAuthn's: `credential` with `response.authenticatorData` and friends.
        let raw = try #require(request.body)
        let object = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
        let credential = try #require(object["credential"] as? [String: Any])
        let response = try #require(credential["response"] as? [String: Any])
        #expect(Set(response.keys) == ["clientDataJSON", "authenticatorData", "signature", "userHandle"])
        if case .completed = keyway.flow.currentUpdate {} else { Issue.record("expected completion, got \(keyway.flow.currentUpdate)") }
    }

    @Test func aRegistrationIsPostedWithItsTrimmedName() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyRegister(flowToken: true))
        let authenticator = SoftwarePasskeyAuthenticator(configuration: .init(attestation: .packed))
        transport.on(registerRoute, json: Steps.manageWithPasskeys())

        await keyway.flow.registerPasskey(using: authenticator, name: "  Work laptop ")

        let sent = try body(RegisterPasskeyRequest.self, of: transport.requests(to: registerRoute).first)
        #expect(sent.name == "Work laptop")
        #expect(try challenge(of: sent.credential.response.clientDataJSON) == Steps.firstChallenge)
        let read = try ReadRegistration(sent.credential)
        #expect(read.attestation[.text("fmt")] == .text("packed"))
        #expect(try await authenticator.credentials().map(\.userHandle) == [Steps.passkeyUserHandle])
        guard case .manageAccount? = keyway.flow.currentUpdate.prompt?.payload else {
            Issue.record("expected the account, got \(keyway.flow.currentUpdate)")
            return
        }
    }

    @Test func aRegistrationWithoutANameSendsNone() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyRegister())
        transport.on(registerRoute, json: Steps.completed)
        await keyway.flow.registerPasskey(using: SoftwarePasskeyAuthenticator(), name: "   ")
        let object = try JSONSerialization.jsonObject(with: try #require(transport.requests(to: registerRoute).first?.body))
        #expect((object as? [String: Any])?.keys.sorted() == ["credential"])
    }

    @Test func aNameOver64CharactersIsRefusedBeforeTheAuthenticatorRuns() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyRegister())
        let authenticator = SoftwarePasskeyAuthenticator()
        await keyway.flow.registerPasskey(using: authenticator, name: String(repeating: "é", count: 65))
        guard case .error(.invalidRequest, .retryInput, let message, false, let problem, nil) = keyway.flow.currentUpdate else {
            Issue.record("expected a local error, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(message == "A passkey's name has at most 64 characters.")
        #expect(problem?.invalidFields?.map(\.name) == ["name"])
        #expect(transport.requests.count == 1)
        #expect(try await authenticator.credentials().isEmpty)
        // 64 characters are fine.
        transport.on(registerRoute, json: Steps.completed)
        await keyway.flow.registerPasskey(using: authenticator, name: String(repeating: "é", count: 64))
        #expect(try body(RegisterPasskeyRequest.self, of: transport.requests(to: registerRoute).first).name?.count == 64)
    }

    @Test func aRefusalReadsTheStepAgainAndTheRetryUsesItsNewChallenge() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyAuthenticate(attempts: 3, flowToken: true))
        let (authenticator, _) = try await authenticatorWithAPasskey()
        transport.on(authenticateRoute, Steps.passkeyRefusal("passkey_signature_invalid", attemptsRemaining: 2))
        transport.on(authenticateRoute, status: 200, json: Steps.completed)
        transport.on(
            "GET \(flowPath)",
            json: Steps.passkeyAuthenticate(challenge: Steps.secondChallenge, attempts: 2, traceId: "reloaded"))

        await keyway.flow.authenticateWithPasskey(using: authenticator)

        guard case .error(let code, .retryInput, _, _, let problem, _) = keyway.flow.currentUpdate else {
            Issue.record("expected the refusal, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(code.rawValue == "passkey_signature_invalid")
        #expect(problem?.attemptsRemaining == 2)
        #expect(transport.requests(to: "GET \(flowPath)").count == 1, "the step was read again")
        // The prompt under the error is the step read again: its new challenge and attempts.
        guard case .passkeyAuthenticate(_, let attempts)? = keyway.flow.currentPrompt?.prompt.payload else {
            Issue.record("expected the passkey prompt under the error")
            return
        }
        #expect(keyway.flow.currentPrompt?.context.step.payload.passkeyAuthenticate?.options.challenge == Steps.secondChallenge)
        #expect(attempts == 2)
        #expect(keyway.flow.currentPrompt?.context.meta.traceID == "reloaded")
        #expect(await keyway.flow.currentStep?.payload.passkeyAuthenticate?.options.challenge == Steps.secondChallenge)

        await keyway.flow.authenticateWithPasskey(using: authenticator)

        let answers = transport.requests(to: authenticateRoute)
        #expect(answers.count == 2)
        let retry = try body(AuthenticatePasskeyRequest.self, of: answers.last)
        #expect(try challenge(of: retry.credential.response.clientDataJSON) == Steps.secondChallenge)
        if case .completed = keyway.flow.currentUpdate {} else { Issue.record("expected completion, got \(keyway.flow.currentUpdate)") }
    }

    @Test func aStepThatCouldNotBeReadAfterARefusalIsReadBeforeTheNextAttempt() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyAuthenticate(flowToken: true))
        let (authenticator, _) = try await authenticatorWithAPasskey()
        transport.on(authenticateRoute, Steps.passkeyRefusal("passkey_challenge_mismatch"))
        transport.on(authenticateRoute, status: 200, json: Steps.completed)
        transport.on("GET \(flowPath)", TransportResponse(status: 502, body: Data("bad gateway".utf8)))
        transport.on("GET \(flowPath)", json: Steps.passkeyAuthenticate(challenge: Steps.secondChallenge, traceId: "reloaded"))

        await keyway.flow.authenticateWithPasskey(using: authenticator)
        #expect(keyway.flow.currentUpdate.errorCode?.rawValue == "passkey_challenge_mismatch")
        guard case .passkeyAuthenticate? = keyway.flow.currentPrompt?.prompt.payload,
            let stale = keyway.flow.currentPrompt?.context.step.payload.passkeyAuthenticate?.options
        else {
            Issue.record("expected the passkey prompt")
            return
        }
        #expect(stale.challenge == Steps.firstChallenge, "the step could not be read: the old prompt stays")

        await keyway.flow.authenticateWithPasskey(using: authenticator)
        #expect(transport.requests(to: "GET \(flowPath)").count == 2, "read again before the authenticator ran")
        let retry = try body(AuthenticatePasskeyRequest.self, of: transport.requests(to: authenticateRoute).last)
        #expect(try challenge(of: retry.credential.response.clientDataJSON) == Steps.secondChallenge)
        if case .completed = keyway.flow.currentUpdate {} else { Issue.record("expected completion") }
    }

    @Test func aRegistrationRefusalReadsTheStepAgainToo() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyRegister(flowToken: true))
        transport.on(registerRoute, Steps.passkeyRefusal("passkey_already_registered"))
        transport.on("GET \(flowPath)", json: Steps.passkeyRegister(challenge: Steps.secondChallenge, traceId: "reloaded"))
        await keyway.flow.registerPasskey(using: SoftwarePasskeyAuthenticator())
        #expect(keyway.flow.currentUpdate.errorCode == .passkeyAlreadyRegistered)
        guard case .passkeyRegister? = keyway.flow.currentPrompt?.prompt.payload,
            let options = keyway.flow.currentPrompt?.context.step.payload.passkeyRegister?.options
        else {
            Issue.record("expected the registration prompt")
            return
        }
        #expect(options.challenge == Steps.secondChallenge)
    }

    @Test func aRefusalThatEndsTheFlowIsNotReadAgain() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyAuthenticate(flowToken: true))
        let (authenticator, _) = try await authenticatorWithAPasskey()
        transport.on(authenticateRoute, problem: "passkey_refused", status: 400, action: "restartFlow")
        await keyway.flow.authenticateWithPasskey(using: authenticator)
        #expect(keyway.flow.currentUpdate.errorCode == .passkeyRefused)
        #expect(keyway.flow.currentPrompt == nil)
        #expect(transport.requests(to: "GET \(flowPath)").isEmpty)
    }

    @Test func anAuthenticatorFailureIsTheFlowsErrorAndThePromptStays() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyAuthenticate(flowToken: true))
        let cases: [(any PasskeyAuthenticator, String, String)] = [
            (SoftwarePasskeyAuthenticator(), "passkey_no_credential", "There is no passkey for this account here."),
            (FailingPasskeyAuthenticator(error: PasskeyError.cancelled), "passkey_cancelled", "The passkey request was cancelled."),
            (FailingPasskeyAuthenticator(error: CancellationError()), "passkey_cancelled", "The passkey request was cancelled."),
            (
                FailingPasskeyAuthenticator(error: URLError(.notConnectedToInternet)), "passkey_failed",
                "The passkey could not be used: \(URLError(.notConnectedToInternet))"
            ),
        ]
        for (authenticator, code, sentence) in cases {
            await keyway.flow.authenticateWithPasskey(using: authenticator)
            guard case .error(let received, .retryInput, let message, false, let problem, nil) = keyway.flow.currentUpdate else {
                Issue.record("expected the authenticator's error, got \(keyway.flow.currentUpdate)")
                continue
            }
            #expect(received.rawValue == code)
            #expect(message == sentence)
            #expect(problem?.status == 0)
            guard case .passkeyAuthenticate? = keyway.flow.currentPrompt?.prompt.payload else {
                Issue.record("the prompt is still current")
                continue
            }
        }
        #expect(transport.requests.count == 1, "nothing was sent")
        // The prompt still answers.
        let (authenticator, _) = try await authenticatorWithAPasskey()
        transport.on(authenticateRoute, json: Steps.completed)
        await keyway.flow.authenticateWithPasskey(using: authenticator)
        if case .completed = keyway.flow.currentUpdate {} else { Issue.record("expected completion") }
    }

    @Test func anAnswerForAFlowAbandonedDuringTheCeremonyIsNotSent() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyAuthenticate(flowToken: true))
        let (inner, _) = try await authenticatorWithAPasskey()
        await keyway.flow.authenticateWithPasskey(using: AbandoningPasskeyAuthenticator(flow: keyway.flow, inner: inner))
        #expect(transport.requests(to: authenticateRoute).isEmpty)
        #expect(keyway.flow.currentUpdate == .idle)
    }

    @Test func passkeyAnswersAtAnotherStepFailLocally() async throws {
        let (keyway, transport) = try await started(on: Steps.enterCode())
        let authenticator = SoftwarePasskeyAuthenticator()
        let calls: [(String, @Sendable (KeywayFlow) async -> Void)] = [
            ("This step does not ask for a passkey.", { await $0.authenticateWithPasskey(using: authenticator) }),
            ("This step does not ask to create a passkey.", { await $0.registerPasskey(using: authenticator) }),
            ("This step does not offer to add a passkey.", { await $0.addPasskey() }),
            ("This step does not offer to rename a passkey.", { await $0.renamePasskey(id: "pk_1", name: "Phone") }),
            ("This step does not offer to remove a passkey.", { await $0.removePasskey(id: "pk_1") }),
        ]
        for (sentence, call) in calls {
            await call(keyway.flow)
            guard case .error(.actionUnavailable, _, let message, _, _, _) = keyway.flow.currentUpdate else {
                Issue.record("expected action_unavailable, got \(keyway.flow.currentUpdate)")
                continue
            }
            #expect(message == sentence)
        }
        #expect(transport.requests.count == 1)
        #expect(try await authenticator.credentials().isEmpty, "the authenticator never ran")
    }

    @Test func aPasskeySignInStartsWithoutAnIdentifier() async throws {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", status: 201, json: Steps.passkeyAuthenticate(flowToken: true))
        transport.on(authenticateRoute, json: Steps.completed)
        let keyway = try makeKeyway(transport)

        await keyway.flow.startPasskeySignIn(options: FlowStartOptions(state: "app-state-1"))

        let start = try #require(transport.requests(to: "POST /v1/flows").first)
        let sent = try body(StartFlowRequest.self, of: start)
        #expect(sent.passkey == true)
        #expect(sent.identifier == "")
        #expect(sent.flowType == .signin)
        #expect(sent.state == "app-state-1")
        #expect(sent.nonce != nil)
        guard case .passkeyAuthenticate(.primary, _)? = keyway.flow.currentUpdate.prompt?.payload,
            let options = keyway.flow.currentPrompt?.context.step.payload.passkeyAuthenticate?.options
        else {
            Issue.record("expected the passkey prompt, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(options.allowCredentials.isEmpty)

        let (authenticator, made) = try await authenticatorWithAPasskey()
        await keyway.flow.authenticateWithPasskey(using: authenticator)
        let answer = try body(AuthenticatePasskeyRequest.self, of: transport.requests(to: authenticateRoute).first)
        #expect(answer.credential.id == made.id)
        #expect(answer.credential.response.userHandle == PasskeyOptions.userHandle, "the passkey names the account")
    }

    @Test func aRegistrationOfferCanBeSkipped() async throws {
        let (keyway, transport) = try await started(on: Steps.passkeyRegister(skippable: true))
        transport.on("POST \(flowPath)/skip", json: Steps.completed)
        await keyway.flow.skip()
        #expect(transport.requests(to: "POST \(flowPath)/skip").count == 1)
        if case .completed = keyway.flow.currentUpdate {} else { Issue.record("expected completion") }
    }

    @Test func theAccountsPasskeysAreListedAndManaged() async throws {
        let (keyway, transport) = try await started(on: Steps.manageWithPasskeys(flowToken: true))
        #expect(keyway.flow.currentPrompt?.context.step.payload.manageAccount?.passkeys?.map(\.name) == ["iPhone", "YubiKey"])
        guard case .manageAccount(_, let operations)? = keyway.flow.currentUpdate.prompt?.payload else {
            Issue.record("expected the account")
            return
        }
        #expect(operations.map(\.name) == ["addPasskey", "renamePasskey", "removePasskey", "finish"])

        transport.on("POST \(flowPath)/manage/renamePasskey", json: Steps.manageWithPasskeys(traceId: "renamed"))
        await keyway.flow.renamePasskey(id: "pk_1", name: " Work phone ")
        #expect(
            transport.requests(to: "POST \(flowPath)/manage/renamePasskey").first?.jsonBody
                == ["passkeyId": "pk_1", "name": "Work phone"])

        // Local checks: the name's length, an empty name, a passkey the account does not list.
        for (id, name, sentence) in [
            ("pk_1", String(repeating: "a", count: 65), "A passkey's name has at most 64 characters."),
            ("pk_1", "  ", "Enter a name for the passkey."),
            ("pk_9", "Phone", "Choose one of the account's passkeys."),
        ] {
            await keyway.flow.renamePasskey(id: id, name: name)
            guard case .error(.invalidRequest, .retryInput, let message, _, _, _) = keyway.flow.currentUpdate else {
                Issue.record("expected a local error, got \(keyway.flow.currentUpdate)")
                continue
            }
            #expect(message == sentence)
        }
        await keyway.flow.removePasskey(id: "pk_9")
        #expect(keyway.flow.currentUpdate.errorCode == .invalidRequest)
        #expect(transport.requests(to: "POST \(flowPath)/manage/renamePasskey").count == 1)

        transport.on("POST \(flowPath)/manage/removePasskey", json: Steps.manageWithPasskeys(traceId: "removed"))
        await keyway.flow.removePasskey(id: "pk_2")
        #expect(transport.requests(to: "POST \(flowPath)/manage/removePasskey").first?.jsonBody == ["passkeyId": "pk_2"])

        // Adding one: the operation, then the registration step, then back to the account.
        transport.on("POST \(flowPath)/manage/addPasskey", json: Steps.passkeyRegister(traceId: "add"))
        transport.on(registerRoute, json: Steps.manageWithPasskeys(traceId: "added"))
        await keyway.flow.addPasskey()
        #expect(transport.requests(to: "POST \(flowPath)/manage/addPasskey").first?.jsonBody == [:])
        guard case .passkeyRegister(.enrolment, false)? = keyway.flow.currentUpdate.prompt?.payload else {
            Issue.record("expected the registration, got \(keyway.flow.currentUpdate)")
            return
        }
        await keyway.flow.registerPasskey(using: SoftwarePasskeyAuthenticator(), name: "Laptop")
        #expect(transport.requests(to: registerRoute).count == 1)
        #expect(keyway.flow.currentPrompt?.context.meta.traceID == "added")
    }
}
