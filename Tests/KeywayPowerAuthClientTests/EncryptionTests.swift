import Crypto
import Foundation
import KeywayPowerAuthClient
import Testing

@Suite("End-to-end encryption")
struct EncryptionTests {
    private func decodeReceived(_ data: Data) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["received"] as? String)
    }

    @Test func applicationScopeWorksBeforeAnyActivationAndTheServerDecryptsIt() async throws {
        let peer = ProtocolPeer()
        let encryptor = PowerAuthEncryptor.application(configuration: try peer.configuration(), options: DeviceActivationOptions(transport: peer))
        let answer = try await encryptor.send(Data(#"{"amount":"100"}"#.utf8), to: peer.baseURL.appendingPathComponent("echo/application"))
        #expect(try decodeReceived(answer) == #"{"amount":"100"}"#)
        #expect(await peer.echoed == [Data(#"{"amount":"100"}"#.utf8)])
    }

    @Test func theEnvelopeHasThePublishedFieldsAndTheHeaderNamesTheScope() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate()
        for scope in EncryptorScope.allCases {
            let encryptor = try await fixture.activation.encryptor(scope: scope)
            let request = try await encryptor.seal(Data("{}".utf8))
            let object = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            #expect(Set(object.keys) == ["temporaryKeyId", "ephemeralPublicKey", "encryptedData", "mac", "nonce", "timestamp"])
            #expect(Data(base64Encoded: object["nonce"] as? String ?? "")?.count == 16)
            #expect(Data(base64Encoded: object["ephemeralPublicKey"] as? String ?? "")?.count == 33)
            #expect(request.encryptionHeader.activationID == (scope == .activation ? id : nil))
            #expect(request.encryptionHeader.value.hasPrefix("PowerAuth version=\"3.3\", application_key=\""))
        }
    }

    @Test func activationScopeDecryptsOnlyWithTheActivationsKeys() async throws {
        let fixture = try Fixture()
        try await fixture.activate()
        let encryptor = try await fixture.activation.encryptor(scope: .activation)
        let answer = try await encryptor.send(Data("secret".utf8), to: fixture.peer.baseURL.appendingPathComponent("echo/activation"))
        #expect(try decodeReceived(answer) == "secret")
        // The same envelope sent as application scope does not decrypt there.
        let request = try await encryptor.seal(Data("x".utf8))
        let response = try await fixture.peer.send(TransportRequest(
            method: "POST", url: fixture.peer.baseURL.appendingPathComponent("echo/application"),
            headers: [PowerAuthEncryptionHeader.name: PowerAuthEncryptionHeader(applicationKey: fixture.peer.applicationKey).value],
            body: request.body))
        #expect(response.status == 400)
    }

    @Test func encryptThenSignCoversTheSealedBody() async throws {
        let fixture = try Fixture()
        try await fixture.activate(password: "1234")
        let encryptor = try await fixture.activation.encryptor(scope: .activation)
        let request = try await encryptor.seal(Data(#"{"pay":1}"#.utf8))
        let header = try await fixture.activation.sign(method: "POST", uriID: "/echo/signed", body: request.body, with: .password("1234"))
        let response = try await fixture.peer.send(TransportRequest(
            method: "POST", url: fixture.peer.baseURL.appendingPathComponent("echo/signed"),
            headers: [PowerAuthAuthorizationHeader.name: header.value], body: request.body))
        #expect(response.status == 200)
        #expect(try decodeReceived(try request.openResponse(response.body)) == #"{"pay":1}"#)
    }

    @Test func aChangedResponseIsRefusedAndTemporaryKeysAreReused() async throws {
        let fixture = try Fixture()
        try await fixture.activate()
        let encryptor = try await fixture.activation.encryptor(scope: .application)
        let before = await fixture.peer.paths.filter { $0 == "/pa/v3/keystore/create" }.count
        let request = try await encryptor.seal(Data("a".utf8))
        let response = try await fixture.peer.send(TransportRequest(
            method: "POST", url: fixture.peer.baseURL.appendingPathComponent("echo/application"),
            headers: [PowerAuthEncryptionHeader.name: request.encryptionHeader.value], body: request.body))
        var object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        var encrypted = try #require(Data(base64Encoded: object["encryptedData"] as? String ?? ""))
        encrypted[0] ^= 1
        object["encryptedData"] = encrypted.base64EncodedString()
        let error = #expect(throws: ActivationError.self) { try request.openResponse(try JSONSerialization.data(withJSONObject: object)) }
        #expect(error?.code == "invalid_response")
        // Another request of another context reuses the temporary key.
        _ = try await encryptor.seal(Data("b".utf8))
        #expect(await fixture.peer.paths.filter { $0 == "/pa/v3/keystore/create" }.count == before + 1)
    }

    @Test func activationScopeNeedsAnActivation() async throws {
        let fixture = try Fixture()
        let error = await #expect(throws: ActivationError.self) { try await fixture.activation.encryptor(scope: .activation) }
        #expect(error == .noActivation)
    }

    @Test func interceptorsAddHeadersButNeverProtocolHeaders() async throws {
        let peer = ProtocolPeer()
        let interceptor = RequestInterceptor { _ in
            ["X-Trace": "t-1", PowerAuthEncryptionHeader.name: "forged", "X-PowerAuth-Authorization": "forged"]
        }
        let activation = DeviceActivation(
            configuration: try peer.configuration(), appIdentifier: "com.example.app", storage: RecordingStorage(),
            options: DeviceActivationOptions(transport: peer, requestInterceptors: [interceptor]))
        let code = ActivationCode.random()
        await peer.addCode(code)
        _ = try await activation.create(with: .typedCode(code.value))
        let headers = await peer.lastActivationHeaders
        #expect(headers["X-Trace"] == "t-1")
        #expect(headers[PowerAuthEncryptionHeader.name]?.hasPrefix("PowerAuth version=") == true)
        #expect(headers["X-PowerAuth-Authorization"] == nil)
    }
}
