import Foundation
import Keyway
import KeywaySoftwarePasskeys
import KeywayProtocol
import KeywayUI
@testable import KeywayPresentation
import Testing

/// Step documents of passkeys, for the screen tests.
enum PasskeyScreenSteps {
    static let first = "Q0hBTExFTkdFLTEtQ0hBTExFTkdFLTEtQ0hBTExFTkdF"
    static let second = "Q0hBTExFTkdFLTItQ0hBTExFTkdFLTItQ0hBTExFTkdF"

    static func register(skippable: Bool, traceId: String = "t1") -> String {
        Steps.json(
            "passkeyRegister",
            payload: """
                {"options":{"rp":{"id":"example.com","name":"Example"},"user":{"id":"dXNlci0x","name":"ada@example.com","displayName":"Ada"},
                "challenge":"\(first)","pubKeyCredParams":[{"type":"public-key","alg":-7}],"excludeCredentials":[],
                "authenticatorSelection":{"residentKey":"required","requireResidentKey":true,"userVerification":"required"},"attestation":"none"},
                "purpose":"enrolment"}
                """,
            actions: [Steps.action("registerPasskey", "passkey/register", label: "Create a passkey")]
                + (skippable ? [Steps.action("skip", "skip", label: "Not now")] : []),
            traceId: traceId)
    }

    static func authenticate(challenge: String = first, attempts: Int = 3, traceId: String = "t1") -> String {
        Steps.json(
            "passkeyAuthenticate",
            payload: #"{"options":{"challenge":"\#(challenge)","rpId":"example.com","allowCredentials":[],"userVerification":"preferred"},"purpose":"primary","attemptsRemaining":\#(attempts)}"#,
            actions: [
                Steps.action("authenticatePasskey", "passkey/authenticate", label: "Use a passkey"),
                Steps.action("selectMethod", "method", label: "Try another way"),
            ],
            traceId: traceId)
    }

    static func manage(traceId: String = "t1") -> String {
        let choice = #"{"name":"passkeyId","type":"select","required":true,"label":"Passkey","options":[{"value":"pk_1","label":"iPhone"},{"value":"pk_2","label":"YubiKey"}]}"#
        return Steps.json(
            "manageAccount",
            payload: #"{"methods":[],"passkeys":[{"id":"pk_1","name":"iPhone","createdAt":"2026-11-20T10:00:00Z","lastUsedAt":"2026-11-23T07:00:00Z","synced":true},{"id":"pk_2","name":"YubiKey","createdAt":"2026-11-21T10:00:00Z","synced":false}]}"#,
            actions: [
                Steps.action("addPasskey", "manage/addPasskey", label: "Add a passkey"),
                Steps.action(
                    "renamePasskey", "manage/renamePasskey", label: "Rename a passkey",
                    fields: "[\(choice),{\"name\":\"name\",\"type\":\"text\",\"required\":true,\"label\":\"New name\",\"maxLength\":64}]"),
                Steps.action("removePasskey", "manage/removePasskey", label: "Remove a passkey", fields: "[\(choice)]"),
                Steps.action("finish", "manage/finish", label: "Done"),
            ],
            traceId: traceId)
    }

    static func refusal(_ code: String, attemptsRemaining: Int) -> TransportResponse {
        let json = """
            {"type":"urn:keyway:problem:\(code)","title":"Refused","status":400,"detail":"This passkey was refused.",
             "code":"\(code)","action":"retryInput","retryable":false,"attemptsRemaining":\(attemptsRemaining),"traceId":"trace-refused"}
            """
        return TransportResponse(status: 400, headers: ["Content-Type": "application/problem+json"], body: Data(json.utf8))
    }

    static func decode(_ json: String) throws -> Step {
        try WireCoding.makeDecoder().decode(Step.self, from: Data(json.utf8))
    }

    /// The challenge a passkey answer's client data carries.
    static func challenge(in body: Data?) throws -> String? {
        let data = try #require(body)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let credential = try #require(object["credential"] as? [String: Any])
        let response = try #require(credential["response"] as? [String: Any])
        var text = try #require(response["clientDataJSON"] as? String)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        let clientData = try #require(Data(base64Encoded: text))
        return (try JSONSerialization.jsonObject(with: clientData) as? [String: Any])?["challenge"] as? String
    }
}

/// An authenticator that fails with `error`.
struct FailingAuthenticator: PasskeyAuthenticator {
    let error: PasskeyError

    func makeCredential(_ options: PublicKeyCredentialCreationOptions) async throws -> PasskeyRegistrationResponse {
        throw error
    }

    func getAssertion(_ options: PublicKeyCredentialRequestOptions) async throws -> PasskeyAssertionResponse {
        throw error
    }
}

@Suite("Passkey screens")
struct PasskeyScreenTests {
    @Test func theRegistrationScreenHasANameAndOneButton() throws {
        let screen = Steps.screen(try PasskeyScreenSteps.decode(PasskeyScreenSteps.register(skippable: true)))
        #expect(screen.kind == .step(.passkeyRegister))
        #expect(screen.title == "Create a passkey")
        #expect(screen.messages.map(\.code) == ["passkeyRegister"])
        #expect(screen.messages.first?.text.contains("ada@example.com") == true)
        #expect(screen.inputs.map(\.name) == ["name"])
        let name = try #require(screen.inputs.first)
        #expect(!name.isRequired)
        #expect(name.validate(nil) == nil)
        #expect(name.validate(String(repeating: "a", count: 65)) != nil)
        #expect(screen.primaryAction?.id == "registerPasskey")
        #expect(screen.primaryAction?.label == "Create a passkey")
        #expect(screen.primaryAction?.submitsInputs == true)
        #expect(screen.secondaryActions.map(\.id) == ["skip", "cancel"])
        #expect(screen.action("skip")?.label == "Not now")

        let offer = Steps.screen(try PasskeyScreenSteps.decode(PasskeyScreenSteps.register(skippable: false)))
        #expect(offer.secondaryActions.map(\.id) == ["cancel"])
    }

    @Test func theSignatureScreenIsOneButtonAndItsAlternatives() throws {
        let screen = Steps.screen(try PasskeyScreenSteps.decode(PasskeyScreenSteps.authenticate(attempts: 2)))
        #expect(screen.kind == .step(.passkeyAuthenticate))
        #expect(screen.title == "Use a passkey")
        #expect(screen.messages.map(\.code) == ["passkeyAuthenticate", "attemptsRemaining"])
        #expect(screen.messages.last?.text == "2 attempts left.")
        #expect(screen.inputs.isEmpty)
        #expect(screen.primaryAction?.id == "authenticatePasskey")
        #expect(screen.primaryAction?.label == "Use a passkey")
        #expect(screen.secondaryActions.map(\.id) == ["selectMethod", "cancel"])
    }

    @Test func theAccountScreenListsThePasskeysAndSharesTheirChoice() throws {
        let screen = Steps.screen(try PasskeyScreenSteps.decode(PasskeyScreenSteps.manage()))
        let created = ISO8601DateFormatter().date(from: "2026-11-20T10:00:00Z")!.formatted(date: .abbreviated, time: .omitted)
        let used = ISO8601DateFormatter().date(from: "2026-11-23T07:00:00Z")!.formatted(date: .abbreviated, time: .shortened)
        let second = ISO8601DateFormatter().date(from: "2026-11-21T10:00:00Z")!.formatted(date: .abbreviated, time: .omitted)
        #expect(
            screen.displays.last
                == .list(
                    title: "Passkeys",
                    items: [
                        ScreenListItem(title: "iPhone", detail: "synced, created \(created), last used \(used)"),
                        ScreenListItem(title: "YubiKey", detail: "this device only, created \(second)"),
                    ]))
        // Renaming and removing name the same passkey input once.
        #expect(screen.inputs.map(\.name) == ["passkeyId", "name"])
        #expect(screen.inputs(of: try #require(screen.action("renamePasskey"))).map(\.name) == ["passkeyId", "name"])
        #expect(screen.inputs(of: try #require(screen.action("removePasskey"))).map(\.name) == ["passkeyId"])
        #expect(screen.secondaryActions.map(\.id) == ["addPasskey", "renamePasskey", "removePasskey", "cancel"])
    }
}

@Suite("The screen model and passkeys")
@MainActor
struct PasskeyScreenModelTests {
    @Test func createAPasskeyRunsTheModelsAuthenticatorWithTheName() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: PasskeyScreenSteps.register(skippable: false))
        server.on("POST /v1/flows/flw_1/passkey/register", step: PasskeyScreenSteps.manage(traceId: "t2"))
        let authenticator = SoftwarePasskeyAuthenticator()
        let model = KeywayScreenModel(keyway: try server.keyway(), passkeyAuthenticator: authenticator)
        #expect(model.canUsePasskeys)
        await model.start(identifier: "a@example.com")

        model.values["name"] = String(repeating: "x", count: 65)
        await model.perform(try #require(model.screen.primaryAction))
        #expect(model.screen.inputs.first?.error != nil, "the name is checked first")
        #expect(server.requests(to: "POST /v1/flows/flw_1/passkey/register").isEmpty)

        model.values["name"] = "Test key"
        await model.perform(try #require(model.screen.primaryAction))
        let sent = try #require(server.requests(to: "POST /v1/flows/flw_1/passkey/register").first)
        let body = try WireCoding.makeDecoder().decode(RegisterPasskeyRequest.self, from: try #require(sent.body))
        #expect(body.name == "Test key")
        #expect(try PasskeyScreenSteps.challenge(in: sent.body) == PasskeyScreenSteps.first)
        #expect(try await authenticator.credentials().map(\.userName) == ["ada@example.com"])
        #expect(model.screen.kind == .step(.manageAccount))
    }

    @Test func aRefusedPasskeyShowsItsBannerAndTheRetryUsesTheNewChallenge() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: PasskeyScreenSteps.authenticate(attempts: 3))
        server.on("POST /v1/flows/flw_1/passkey/authenticate", PasskeyScreenSteps.refusal("passkey_signature_invalid", attemptsRemaining: 2))
        server.on("POST /v1/flows/flw_1/passkey/authenticate", step: ModelSteps.code("t3"))
        server.on("GET /v1/flows/flw_1", step: PasskeyScreenSteps.authenticate(challenge: PasskeyScreenSteps.second, attempts: 2, traceId: "t2"))
        let authenticator = SoftwarePasskeyAuthenticator()
        _ = try await authenticator.makeCredential(
            PublicKeyCredentialCreationOptions(
                rp: .init(id: "example.com", name: "Example"), user: .init(id: "dXNlci0x", name: "ada@example.com", displayName: "Ada"),
                challenge: "AAAA", pubKeyCredParams: [.init(alg: -7)],
                authenticatorSelection: .init(userVerification: "required")))
        let model = KeywayScreenModel(keyway: try server.keyway(), passkeyAuthenticator: authenticator)

        await model.startPasskeySignIn()
        let start = try #require(server.requests(to: "POST /v1/flows").first?.body)
        let started = try #require(try JSONSerialization.jsonObject(with: start) as? [String: Any])
        #expect(started["passkey"] as? Bool == true)
        #expect(started["identifier"] as? String == "")
        #expect(model.screen.kind == .step(.passkeyAuthenticate))

        await model.perform(try #require(model.screen.primaryAction))
        #expect(model.screen.kind == .step(.passkeyAuthenticate))
        #expect(model.screen.banner?.code.rawValue == "passkey_signature_invalid")
        #expect(model.screen.banner?.message == "This passkey was refused.")
        #expect(model.screen.messages.contains { $0.code == "attemptsRemaining" }, "the step read again: 2 left")

        await model.perform(try #require(model.screen.primaryAction))
        let answers = server.requests(to: "POST /v1/flows/flw_1/passkey/authenticate")
        #expect(answers.count == 2)
        #expect(try PasskeyScreenSteps.challenge(in: answers.last?.body) == PasskeyScreenSteps.second)
        #expect(model.screen.kind == .step(.enterCode))
    }

    @Test func aClosedSheetIsABannerAndNothingIsSent() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: PasskeyScreenSteps.authenticate())
        let model = KeywayScreenModel(keyway: try server.keyway(), passkeyAuthenticator: FailingAuthenticator(error: .cancelled))
        await model.start(identifier: "a@example.com")
        await model.perform(try #require(model.screen.primaryAction))
        #expect(model.screen.kind == .step(.passkeyAuthenticate))
        #expect(model.screen.banner?.code == .passkeyCancelled)
        #expect(model.screen.banner?.message == "The passkey request was cancelled.")
        #expect(server.requests(to: "POST /v1/flows/flw_1/passkey/authenticate").isEmpty)
    }

    @Test func withoutAnAuthenticatorThePasskeyButtonSaysSo() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: PasskeyScreenSteps.register(skippable: true))
        server.on("POST /v1/flows/flw_1/skip", step: ModelSteps.code("t2"))
        let model = KeywayScreenModel(keyway: try server.keyway())
        #expect(!model.canUsePasskeys)
        await model.start(identifier: "a@example.com")
        await model.perform(try #require(model.screen.primaryAction))
        #expect(model.screen.messages.last?.code == "passkeyUnavailable")
        #expect(server.requests(to: "POST /v1/flows/flw_1/passkey/register").isEmpty)
        // Skipping still works.
        await model.perform(try #require(model.screen.action("skip")))
        #expect(model.screen.kind == .step(.enterCode))
    }

    @Test func renamingAndRemovingSendTheChosenPasskey() async throws {
        let server = StubTransport()
        server.on("POST /v1/flows", step: PasskeyScreenSteps.manage())
        server.on("POST /v1/flows/flw_1/manage/renamePasskey", step: PasskeyScreenSteps.manage(traceId: "t2"))
        server.on("POST /v1/flows/flw_1/manage/removePasskey", step: PasskeyScreenSteps.manage(traceId: "t3"))
        let model = KeywayScreenModel(keyway: try server.keyway())
        await model.start(identifier: "a@example.com")

        model.values = ["passkeyId": "pk_1", "name": "  Work phone "]
        await model.perform(try #require(model.screen.action("renamePasskey")))
        #expect(server.bodies(to: "POST /v1/flows/flw_1/manage/renamePasskey") == [["passkeyId": "pk_1", "name": "Work phone"]])

        model.values = ["passkeyId": "pk_2"]
        await model.perform(try #require(model.screen.action("removePasskey")))
        #expect(server.bodies(to: "POST /v1/flows/flw_1/manage/removePasskey") == [["passkeyId": "pk_2"]])
        #expect(model.screen.kind == .step(.manageAccount))
    }
}
