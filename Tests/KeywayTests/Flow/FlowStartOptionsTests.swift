import Foundation
@testable import Keyway
import KeywayProtocol
import Testing

@Suite("Flow start OpenID Connect options")
struct FlowStartOptionsTests {
    let flowPath = Steps.base

    func completed(state: String?) -> String {
        let member = state.map { #", "state": "\#($0)""# } ?? ""
        return """
            {"flowId": "\(Steps.flowId)", "kind": "completed", "stepInfo": {"id": "completed", "label": "Signed in"},
             "completed": {"authCode": "ac_1", "expiresAt": "2026-11-23T07:29:32.065Z",
                           "session": "ses_1", "newUser": false\(member)},
             "actions": [], "links": [], "messages": [], "meta": {"traceId": "1f31264ad9a9d4e8c84cc97cff7be894"}}
            """
    }

    func startBody(_ transport: ScriptedTransport) throws -> [String: Any] {
        let body = try #require(transport.requests(to: "POST /v1/flows").last?.body)
        return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    @Test func theStartSendsScopeNonceRedirectURIAndState() async throws {
        let provider = ScriptedProvider()
        provider.transport.on("POST /v1/flows", json: Steps.enterCode(flowToken: true))
        let keyway = try provider.keyway(random: CountingRandom())
        let options = FlowStartOptions(
            scopes: ["email", "openid"], redirectURI: URL(string: "com.example.app:/callback")!, state: "st-1")
        await keyway.flow.start(identifier: "ada@example.com", options: options)
        let body = try startBody(provider.transport)
        #expect(body["scope"] as? String == "openid email")
        #expect(body["redirectUri"] as? String == "com.example.app:/callback")
        #expect(body["state"] as? String == "st-1")
        #expect((body["nonce"] as? String)?.count == 43)
    }

    @Test func theNonceIsDrawnOnlyWhenAnIDTokenIsAskedFor() async throws {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", json: Steps.enterCode(flowToken: true))
        let keyway = try makeKeyway(transport)
        await keyway.flow.start(identifier: "ada@example.com")
        var body = try startBody(transport)
        #expect((body["nonce"] as? String)?.count == 43)
        #expect(body["scope"] == nil && body["state"] == nil && body["redirectUri"] == nil)
        await keyway.flow.start(identifier: "ada@example.com", options: FlowStartOptions(scope: "email"))
        body = try startBody(transport)
        #expect(body["nonce"] == nil)
        await keyway.flow.start(identifier: "ada@example.com", options: FlowStartOptions(nonce: .omitted))
        #expect(try startBody(transport)["nonce"] == nil)
        await keyway.flow.start(identifier: "ada@example.com", options: FlowStartOptions(nonce: .value("mine")))
        #expect(try startBody(transport)["nonce"] as? String == "mine")
    }

    @Test func accountManagementGetsNoNonceOfTheSDKsMaking() async throws {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", json: Steps.manageAccount(flowToken: true))
        let keyway = try makeKeyway(transport)
        await keyway.startAccountManagement(accessToken: Sensitive("eyJ.access.token"), identifier: "ada@example.com")
        let body = try startBody(transport)
        #expect(body["flowType"] as? String == "accountManage")
        #expect(body["nonce"] == nil)
    }

    @Test func malformedOptionsFailLocally() async throws {
        let transport = ScriptedTransport()
        let keyway = try makeKeyway(transport)
        await keyway.flow.start(
            identifier: "ada@example.com", options: FlowStartOptions(scope: "openid \"x\"", state: ""))
        guard case .error(.invalidRequest, .abort, _, _, let problem, _) = keyway.flow.currentUpdate else {
            Issue.record("expected invalid_request, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(problem?.invalidFields?.map(\.name) == ["scope", "state"])
        #expect(transport.requests.isEmpty)
    }

    @Test func theCompletionCarriesTheStateAndTheExchangeChecksTheNonce() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata()
        provider.transport.on("POST /v1/flows", json: Steps.enterCode(flowToken: true))
        provider.transport.on("POST \(flowPath)/code", json: completed(state: "st-1"))
        let keyway = try provider.keyway()
        let redirect = URL(string: "com.example.app:/callback")!
        await keyway.flow.start(
            identifier: "ada@example.com", options: FlowStartOptions(redirectURI: redirect, state: "st-1"))
        await keyway.flow.submitCode("123456")
        guard case .completed(_, let authCode, _, let verifier?, _) = keyway.flow.currentUpdate else {
            Issue.record("expected completion, got \(keyway.flow.currentUpdate)")
            return
        }
        let completion = try #require(await keyway.flow.completion)
        #expect(completion.state == "st-1")
        #expect(completion.redirectURI == redirect)
        let nonce = try #require(completion.nonce)
        #expect(try startBody(provider.transport)["nonce"] as? String == nonce)

        try provider.serveTokens(nonce: nonce)
        let tokens = try await keyway.tokens.exchange(authCode: authCode, codeVerifier: verifier)
        #expect(tokens.idToken.nonce == nonce)
        #expect(provider.tokenForm()["redirect_uri"] == "com.example.app:/callback")

        let other = ScriptedProvider()
        other.serveMetadata()
        try other.serveTokens(nonce: "another")
        let otherKeyway = try other.keyway()
        await #expect(throws: KeywayError.self) { try await otherKeyway.tokens.exchange(completion) }
        try other.serveTokens(nonce: nil)
        await #expect(throws: KeywayError.self) { try await otherKeyway.tokens.exchange(completion) }
    }

    @Test func aCompletionWithAnotherStateIsAnError() async throws {
        let transport = ScriptedTransport()
        transport.on("POST /v1/flows", json: Steps.enterCode(flowToken: true))
        transport.on("POST \(flowPath)/code", json: completed(state: "forged"))
        let keyway = try makeKeyway(transport)
        await keyway.flow.start(identifier: "ada@example.com", options: FlowStartOptions(state: "st-1"))
        await keyway.flow.submitCode("123456")
        guard case .error(.invalidResponse, .abort, _, _, _, _) = keyway.flow.currentUpdate else {
            Issue.record("expected invalid_response, got \(keyway.flow.currentUpdate)")
            return
        }
        #expect(await keyway.flow.completion == nil)
    }
}
