import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire
import Testing

@Suite("PowerAuth's JSON")
struct PowerAuthWireTests {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func anEnvelopeCarriesItsPayloadInBase64AndBack() throws {
        let payload = EciesPayload(
            encryptedData: Data(repeating: 1, count: 16), mac: Data(repeating: 2, count: 32),
            ephemeralPublicKey: Data(repeating: 3, count: 33), nonce: Data(repeating: 4, count: 16), timestamp: 1_700_000_000_000)
        let envelope = EciesEnvelope(payload, temporaryKeyID: "tk")
        #expect(envelope.temporaryKeyId == "tk")
        #expect(envelope.payload == payload)
        let decoded = try JSONDecoder().decode(EciesEnvelope.self, from: Data(try Self.json(envelope).utf8))
        #expect(decoded == envelope)
        // An answer has no key fields, and none is written.
        let answer = EciesEnvelope(EciesPayload(encryptedData: Data(count: 16), mac: Data(count: 32), nonce: Data(count: 16), timestamp: 5))
        #expect(try Self.json(answer).contains("ephemeralPublicKey") == false)
        #expect(try Self.json(answer).contains("temporaryKeyId") == false)
    }

    @Test func anEnvelopesJSONBodyIsItsMembersInOrderWithoutTheAbsentOnes() throws {
        let answer = EciesEnvelope(encryptedData: "ZW5j", mac: "bWFj", nonce: "bm9u", timestamp: 7)
        #expect(String(decoding: answer.json(), as: UTF8.self) == #"{"encryptedData":"ZW5j","mac":"bWFj","nonce":"bm9u","timestamp":7}"#)
        #expect(try JSONDecoder().decode(EciesEnvelope.self, from: answer.json()) == answer)
    }

    @Test func theBackendsEnvelopeKeyMessagesReadAsTheServerWritesThem() throws {
        let request = EnvelopeKeyRequest(
            applicationKey: "app", activationId: nil, scope: "application", temporaryKeyId: "tk", ephemeralPublicKey: "ZXBo",
            nonce: "bm9u", timestamp: 1_700_000_000_000)
        #expect(try JSONDecoder().decode(EnvelopeKeyRequest.self, from: Data(try Self.json(request).utf8)) == request)
        // The timestamp is Unix milliseconds: a negative one is not one.
        let negative = #"{"applicationKey":"app","scope":"application","temporaryKeyId":"tk","ephemeralPublicKey":"ZXBo","nonce":"bm9u","timestamp":-1}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(EnvelopeKeyRequest.self, from: Data(negative.utf8)) }
        let answer = try JSONDecoder().decode(
            EnvelopeKeyAnswer.self,
            from: Data(#"{"envelopeKey":"a2V5","sharedInfo2Base":"c2k=","associatedData":"YWQ=","version":"3.3","applicationId":"cfg"}"#.utf8))
        #expect(answer.version == "3.3" && answer.applicationId == "cfg" && answer.activationId == nil)
    }

    @Test func anEnvelopeWithoutCiphertextOrMacOrWithBrokenBase64HasNoPayload() {
        let mac = Data(count: 32).base64EncodedString()
        let data = Data(count: 16).base64EncodedString()
        #expect(EciesEnvelope(encryptedData: data, mac: mac).payload != nil)
        #expect(EciesEnvelope(mac: mac).payload == nil)
        #expect(EciesEnvelope(encryptedData: data).payload == nil)
        #expect(EciesEnvelope(encryptedData: "***", mac: mac).payload == nil)
        #expect(EciesEnvelope(ephemeralPublicKey: "***", encryptedData: data, mac: mac).payload == nil)
        #expect(EciesEnvelope(encryptedData: data, mac: mac, nonce: "***").payload == nil)
    }

    @Test func bodiesAreReadWithOrWithoutTheirStatus() throws {
        let error = PowerAuthErrorBody(responseObject: .init(code: "ERR_AUTHENTICATION", message: "No."))
        #expect(try Self.json(error) == #"{"responseObject":{"code":"ERR_AUTHENTICATION","message":"No."},"status":"ERROR"}"#)
        let read = try JSONDecoder().decode(PowerAuthErrorBody.self, from: Data(#"{"responseObject":{"code":"E","message":"m"}}"#.utf8))
        #expect(read.status == "ERROR" && read.responseObject == .init(code: "E", message: "m"))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PowerAuthErrorBody.self, from: Data("{}".utf8)) }

        #expect(try Self.json(PowerAuthOKBody<PowerAuthEmptyObject>(responseObject: nil)) == #"{"status":"OK"}"#)
        let ok = try JSONDecoder().decode(PowerAuthOKBody<TokenRemoveObject>.self, from: Data(#"{"responseObject":{"tokenId":"t"}}"#.utf8))
        #expect(ok.status == "OK" && ok.responseObject?.tokenId == "t")
    }

    @Test func theKeystoreAnswerIsReadFromEitherObject() throws {
        let written = KeystoreCreateResponse(jwt: "x.y.z")
        #expect(try Self.json(written) == #"{"requestObject":{"jwt":"x.y.z"},"responseObject":{"jwt":"x.y.z"},"status":"OK"}"#)
        let decoder = JSONDecoder()
        #expect(try decoder.decode(KeystoreCreateResponse.self, from: Data(#"{"responseObject":{"jwt":"a"}}"#.utf8)).jwt == "a")
        #expect(try decoder.decode(KeystoreCreateResponse.self, from: Data(#"{"requestObject":{"jwt":"b"}}"#.utf8)).jwt == "b")
        #expect(try decoder.decode(KeystoreCreateResponse.self, from: Data("{}".utf8)).jwt == nil)
    }

    @Test func theActivationKindIsTypeAsShippedOrActivationTypeAsDocumented() throws {
        let decoder = JSONDecoder()
        #expect(try decoder.decode(ActivationLayer1Request.self, from: Data(#"{"type":"CODE"}"#.utf8)).kind == "CODE")
        #expect(try decoder.decode(ActivationLayer1Request.self, from: Data(#"{"activationType":"RECOVERY"}"#.utf8)).kind == "RECOVERY")
        #expect(try decoder.decode(ActivationLayer1Request.self, from: Data(#"{"type":"CODE","activationType":"CUSTOM"}"#.utf8)).kind == "CODE")
        #expect(try decoder.decode(ActivationLayer1Request.self, from: Data("{}".utf8)).kind == nil)
        // A device sends `type`, as every shipping implementation does.
        #expect(try Self.json(ActivationLayer1Request(type: "CODE", identityAttributes: ["code": "A"])) == #"{"identityAttributes":{"code":"A"},"type":"CODE"}"#)
    }
}
