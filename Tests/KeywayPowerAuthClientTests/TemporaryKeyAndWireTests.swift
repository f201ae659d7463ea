import Crypto
import Foundation
import KeywayPowerAuthWire
import Testing

@testable import KeywayPowerAuthClient

@Suite("Temporary keys, user activation codes and the wire")
struct TemporaryKeyAndWireTests {
    @Test func aTemporaryKeyNotSignedByTheMasterKeyStopsTheActivation() async throws {
        let fixture = try Fixture()
        let code = ActivationCode.random()
        await fixture.peer.addCode(code)
        await fixture.peer.forgeTemporaryKeys(signer: P256.Signing.PrivateKey(), challenge: nil)
        let forged = await #expect(throws: ActivationError.self) { try await fixture.activation.create(with: .typedCode(code.value)) }
        #expect(forged?.code == "invalid_response")
        await fixture.peer.forgeTemporaryKeys(signer: nil, challenge: "another request's challenge")
        let replayed = await #expect(throws: ActivationError.self) { try await fixture.activation.create(with: .typedCode(code.value)) }
        #expect(replayed == .invalidResponse("The temporary key answers another request."))
        // Nothing was sent past the key store, and nothing was kept.
        #expect(await fixture.peer.paths == ["/pa/v3/keystore/create", "/pa/v3/keystore/create"])
        #expect(try await fixture.activation.state() == .none)
    }

    @Test func temporaryKeyClaimsAreChecked() throws {
        let key = P256.KeyAgreement.PrivateKey().publicKey.x963Representation.base64EncodedString()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let good = TemporaryKeyClaims(
            applicationKey: "k", activationID: "a", challenge: "c", keyID: "t", publicKey: key,
            expiresAtMilliseconds: 1_700_000_060_000)
        #expect(try TemporaryKeys.check(good, applicationKey: "k", activationID: "a", challenge: "c", now: now).id == "t")
        #expect(throws: ActivationError.self) {
            try TemporaryKeys.check(good, applicationKey: "k", activationID: nil, challenge: "c", now: now)
        }
        #expect(throws: ActivationError.self) {
            try TemporaryKeys.check(good, applicationKey: "k", activationID: "a", challenge: "c", now: now.addingTimeInterval(61))
        }
        var keyless = good
        keyless.publicKey = "AAAA"
        #expect(throws: ActivationError.self) { try TemporaryKeys.check(keyless, applicationKey: "k", activationID: "a", challenge: "c", now: now) }
        // The answer's JWT is read from responseObject, or from requestObject as the published example writes it.
        #expect(try TemporaryKeys.answerJWT(Data(#"{"responseObject":{"jwt":"x.y.z"}}"#.utf8)) == "x.y.z")
        #expect(try TemporaryKeys.answerJWT(Data(#"{"requestObject":{"jwt":"x.y.z"}}"#.utf8)) == "x.y.z")
        #expect(throws: ActivationError.self) { try TemporaryKeys.answerJWT(Data("{}".utf8)) }
    }

    @Test func anEncryptedAnswerWithoutItsCiphertextOrInBrokenBase64IsRefused() throws {
        let exchange = try EciesExchange(
            key: TemporaryKey(id: "t", publicKey: P256.KeyAgreement.PrivateKey().publicKey), sharedInfo1: .applicationScopeGeneric,
            scope: .application, configuration: try ProtocolPeer().configuration())
        let refusal = ActivationError.invalidResponse("The encrypted answer lacks its ciphertext or MAC, or a value is not Base64.")
        let mac = Data(count: 32).base64EncodedString()
        #expect(throws: refusal) { try exchange.open(EciesEnvelope(mac: mac, nonce: mac, timestamp: 1)) }
        #expect(throws: refusal) { try exchange.open(EciesEnvelope(encryptedData: "***", mac: mac)) }
        // A well-formed envelope that is not this exchange's answer does not decrypt.
        let foreign = EciesEnvelope(encryptedData: Data(count: 16).base64EncodedString(), mac: mac, nonce: Data(count: 16).base64EncodedString())
        #expect(throws: ActivationError.self) { try exchange.open(foreign) }
    }

    @Test func errorBodiesBecomeActivationErrors() {
        let body = Data(#"{"status":"ERROR","responseObject":{"code":"ERR_ACTIVATION","message":"Activation expired"}}"#.utf8)
        #expect(PowerAuthHTTP.error(from: TransportResponse(status: 400, body: body))
            == .server(status: 400, code: "ERR_ACTIVATION", message: "Activation expired"))
        #expect(PowerAuthHTTP.error(from: TransportResponse(status: 401, body: body))
            == .authenticationFailed(code: "ERR_ACTIVATION", message: "Activation expired"))
        #expect(PowerAuthHTTP.error(from: TransportResponse(status: 503, body: Data("busy".utf8))) == .server(status: 503, code: "ERROR", message: ""))
        // A body without its status is read all the same.
        let statusless = Data(#"{"responseObject":{"code":"ERR_ACTIVATION","message":"Activation expired"}}"#.utf8)
        #expect(PowerAuthHTTP.error(from: TransportResponse(status: 400, body: statusless))
            == .server(status: 400, code: "ERR_ACTIVATION", message: "Activation expired"))
        #expect(ActivationError.server(status: 503, code: "ERROR", message: "").recovery == .retry)
    }

    @Test func userActivationCodesFollowTheContract() async throws {
        let transport = UserActivationsServer()
        let keyway = try KeywayClient(
            configID: "cfg_1", baseURL: URL(string: "https://auth.example/v1")!, options: KeywayOptions(transport: transport))
        let issued = try await UserActivationCodes(keyway: keyway).create(
            ActivationCodeRequest(expiresIn: 900, otp: "12345", commit: .confirm, name: "Phone"), accessToken: Sensitive("at-1"))
        #expect(issued.activationCode == "VVVVV-VVVVV-VVVVV-VTFVA")
        #expect(issued.activationID == "act_1")
        let request = try #require(await transport.last)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://auth.example/v1/user/activations")
        #expect(request.headers["Authorization"] == "Bearer at-1")
        let body = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
        #expect(body["expiresIn"] as? Int == 900 && body["otp"] as? String == "12345")
        #expect(body["commit"] as? String == "confirm" && body["name"] as? String == "Phone")
        #expect(body["configId"] == nil)

        await transport.refuse()
        await #expect(throws: KeywayError.self) {
            try await UserActivationCodes(keyway: keyway).create(ActivationCodeRequest(), accessToken: Sensitive("at-1"))
        }
    }

    @Test func theResynchronizationRule() throws {
        let transport = SymmetricKey(size: .bits128)
        let start = PowerAuthHashCounter.random()
        var record = ActivationRecord(
            activationID: "a", serverPublicKey: Data(), devicePublicKey: Data(), fingerprint: "00000000",
            encryptedDevicePrivateKey: Data(), possessionKey: Data(), transportKey: transport.bytes, counterData: start, counter: 10,
            hasBiometry: false, createdAt: Date())
        func blob(counterData: Data, counterByte: UInt8) throws -> ActivationStatusBlob {
            var bytes: [UInt8] = ActivationStatusBlob.magic + [3, 3, 3, 0, 0, 0, 0, 0, counterByte, 0, 5, 20]
            bytes += Array(try ActivationStatusBlob.counterDataHash(counterData, transportKey: transport))
            return try ActivationStatusBlob(decoding: bytes)
        }
        var ahead = start
        for _ in 0..<19 { ahead = PowerAuthHashCounter.next(ahead) }
        #expect(DeviceActivation.synchronize(&record, with: try blob(counterData: ahead, counterByte: 29)) == .resynchronized(steps: 19))
        #expect(record.counterData == ahead && record.counter == 29)
        // Twenty steps is beyond the window: nothing moves.
        var tooFar = ahead
        for _ in 0..<20 { tooFar = PowerAuthHashCounter.next(tooFar) }
        #expect(DeviceActivation.synchronize(&record, with: try blob(counterData: tooFar, counterByte: 49)) == .outOfSync)
        #expect(record.counterData == ahead)
        #expect(DeviceActivation.synchronize(&record, with: try blob(counterData: start, counterByte: 26)) == .deviceAhead(steps: 3))
        // The counter byte wraps.
        record.counter = 257
        #expect(DeviceActivation.synchronize(&record, with: try blob(counterData: start, counterByte: 255)) == .deviceAhead(steps: 2))
    }
}

/// Answers `POST /v1/user/activations` as the contract describes, and keeps the request.
actor UserActivationsServer: HTTPTransport {
    private(set) var last: TransportRequest?
    private var refusing = false

    func refuse() { refusing = true }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        last = request
        if refusing {
            return TransportResponse(
                status: 403, headers: ["Content-Type": "application/problem+json"],
                body: Data(#"{"type":"about:blank","title":"Forbidden","status":403,"detail":"No.","code":"forbidden","action":"abort","retryable":false}"#.utf8))
        }
        return TransportResponse(status: 201, body: Data("""
            {"activationId":"act_1","activationCode":"VVVVV-VVVVV-VVVVV-VTFVA","activationSignature":"MEUCIQ==",
             "qrPayload":"VVVVV-VVVVV-VVVVV-VTFVA#MEUCIQ==","status":"CREATED","expiresAt":"2026-11-24T13:40:00Z"}
            """.utf8))
    }
}
