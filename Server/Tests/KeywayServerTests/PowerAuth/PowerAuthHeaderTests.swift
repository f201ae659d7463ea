import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire
import Testing

@testable import KeywayServer

@Suite("PowerAuth headers and envelopes: strict parsing")
struct PowerAuthHeaderTests {
    static let appKey = Data(repeating: 1, count: 16).base64EncodedString()
    static let nonce = Data(repeating: 2, count: 16).base64EncodedString()
    static let signature = Data(repeating: 3, count: 32).base64EncodedString()

    @Test func readsAWellFormedAuthorizationHeader() throws {
        let header = try PowerAuthRequestHeader.authorization(
            "PowerAuth pa_activation_id=\"a-1\",\n\tpa_application_key=\"\(Self.appKey)\", pa_nonce=\"\(Self.nonce)\", "
                + "pa_signature_type=\"possession_knowledge\", pa_signature=\"\(Self.signature)\", pa_version=\"3.3\"")
        #expect(header.activationID == "a-1")
        #expect(header.applicationKey == Self.appKey)
        #expect(header.nonce == Data(repeating: 2, count: 16))
        #expect(header.factors == [.possession, .knowledge])
        #expect(header.signature == Self.signature)
        #expect(header.version == "3.3")
        // 3.2 (the 1.7 and 1.8 mobile SDKs) signs alike.
        let older = try PowerAuthRequestHeader.authorization(
            "PowerAuth pa_activation_id=\"a-1\", pa_application_key=\"\(Self.appKey)\", pa_nonce=\"\(Self.nonce)\", "
                + "pa_signature_type=\"possession_knowledge\", pa_signature=\"\(Self.signature)\", pa_version=\"3.2\"")
        #expect(older.version == "3.2")
    }

    @Test(arguments: [
        "", "PowerAuth", "PowerAuthx", "Bearer abc", "PowerAuth pa_version=\"3.3", "PowerAuth pa_version=3.3",
        "PowerAuth pa_version=\"3.3\", pa_version=\"3.3\"", "PowerAuth =\"x\"", "PowerAuth pa-version=\"3.3\"",
        "PowerAuth pa_activation_id=\"a\", pa_application_key=\"\(appKey)\", pa_nonce=\"\(nonce)\", pa_signature_type=\"possession\", pa_signature=\"\(signature)\", pa_version=\"3.3\"",
        "PowerAuth pa_activation_id=\"a\", pa_application_key=\"\(appKey)\", pa_nonce=\"\(nonce)\", pa_signature_type=\"biometry_possession\", pa_signature=\"\(signature)\", pa_version=\"3.3\"",
        "PowerAuth pa_activation_id=\"a\", pa_application_key=\"\(appKey)\", pa_nonce=\"\(nonce)\", pa_signature_type=\"possession_knowledge\", pa_signature=\"\(signature)\", pa_version=\"3.1\"",
        "PowerAuth pa_activation_id=\"a b\", pa_application_key=\"\(appKey)\", pa_nonce=\"\(nonce)\", pa_signature_type=\"possession_knowledge\", pa_signature=\"\(signature)\", pa_version=\"3.3\"",
        "PowerAuth pa_activation_id=\"a\", pa_application_key=\"\(appKey)\", pa_nonce=\"AAAA\", pa_signature_type=\"possession_knowledge\", pa_signature=\"\(signature)\", pa_version=\"3.3\"",
        String(repeating: "PowerAuth ", count: 500),
    ])
    func refusesMalformedAuthorizationHeaders(_ text: String) {
        #expect(throws: PowerAuthFailure.self) { try PowerAuthRequestHeader.authorization(text) }
        do {
            _ = try PowerAuthRequestHeader.authorization(text)
        } catch {
            #expect(error.status == .badRequest && error.code == "ERR_INVALID_REQUEST")
        }
    }

    @Test func everyTruncationAndMutationOfAHeaderIsRefusedOrRead() throws {
        let header = "PowerAuth pa_activation_id=\"a-1\", pa_application_key=\"\(Self.appKey)\", pa_nonce=\"\(Self.nonce)\", "
            + "pa_signature_type=\"possession_knowledge\", pa_signature=\"\(Self.signature)\", pa_version=\"3.3\""
        let characters = Array(header)
        for length in 0..<characters.count {
            #expect(throws: PowerAuthFailure.self) { try PowerAuthRequestHeader.authorization(String(characters.prefix(length))) }
        }
        // Any one character replaced: read or refused as a malformed request, never anything else.
        var generator = SystemRandomNumberGenerator()
        for index in characters.indices {
            var mutated = characters
            mutated[index] = ["\"", "=", ",", " ", "\u{0}", "é", "A", "/"].randomElement(using: &generator)!
            do {
                _ = try PowerAuthRequestHeader.authorization(String(mutated))
            } catch {
                #expect(error.code == "ERR_INVALID_REQUEST")
            }
        }
    }

    @Test func readsTheEncryptionHeader() throws {
        let header = try PowerAuthRequestHeader.encryption("PowerAuth version=\"3.3\", application_key=\"\(Self.appKey)\"")
        #expect(header.version == "3.3" && header.applicationKey == Self.appKey && header.activationID == nil)
        let scoped = try PowerAuthRequestHeader.encryption(
            "PowerAuth version=\"3.3\", application_key=\"\(Self.appKey)\", activation_id=\"act\"")
        #expect(scoped.activationID == "act")
        #expect(throws: PowerAuthFailure.self) { try PowerAuthRequestHeader.encryption(nil) }
        #expect(throws: PowerAuthFailure.self) { try PowerAuthRequestHeader.encryption("PowerAuth version=\"3.1\", application_key=\"\(Self.appKey)\"") }
        #expect(try PowerAuthRequestHeader.encryption("PowerAuth version=\"3.2\", application_key=\"\(Self.appKey)\"").version == "3.2")
    }

    @Test func checksEnvelopesFieldByField() throws {
        let valid = EciesEnvelope(
            temporaryKeyId: "k", ephemeralPublicKey: Data([2] + [UInt8](repeating: 7, count: 32)).base64EncodedString(),
            encryptedData: Data(count: 32).base64EncodedString(), mac: Data(count: 32).base64EncodedString(),
            nonce: Data(count: 16).base64EncodedString(), timestamp: 1)
        let request = try EciesRequest(valid, version: .v33)
        #expect(request.temporaryKeyId == "k" && request.payload.timestamp == 1 && request.payload.encryptedData.count == 32)
        var fallback = valid
        fallback.temporaryKeyId = nil
        #expect(try EciesRequest(fallback, version: .v33, fallbackTemporaryKeyId: "outer").temporaryKeyId == "outer")
        #expect(throws: PowerAuthFailure.self) { try EciesRequest(fallback, version: .v33) }
        // 3.2 has no temporary keys: none is needed, and one sent is not read.
        #expect(try EciesRequest(fallback, version: .v32).temporaryKeyId == nil)
        #expect(try EciesRequest(valid, version: .v32).temporaryKeyId == nil)
        var broken: [EciesEnvelope] = []
        for change in [
            { (b: inout EciesEnvelope) in b.encryptedData = Data(count: 17).base64EncodedString() },
            { $0.encryptedData = "" }, { $0.mac = Data(count: 16).base64EncodedString() }, { $0.nonce = "***" },
            { $0.timestamp = 0 }, { $0.ephemeralPublicKey = Data(count: 64).base64EncodedString() },
            { $0.encryptedData = String(repeating: "A", count: 70_000) },
        ] as [(inout EciesEnvelope) -> Void] {
            var body = valid
            change(&body)
            broken.append(body)
        }
        for body in broken {
            #expect(throws: PowerAuthFailure.self) { try EciesRequest(body, version: .v33) }
            #expect(throws: PowerAuthFailure.self) { try EciesRequest(body, version: .v32) }
        }
    }

    /// The shipping SDKs send the activation's kind as `type`, the published document as
    /// `activationType`: both are read, `type` first.
    @Test func readsTheActivationKindFromTypeOrActivationType() throws {
        let stock = try PowerAuthJSON.decode(ActivationLayer1Request.self, from: Data(#"{"type":"CODE","identityAttributes":{"code":"A"}}"#.utf8))
        #expect(stock.kind == "CODE")
        let documented = try PowerAuthJSON.decode(ActivationLayer1Request.self, from: Data(#"{"activationType":"CUSTOM"}"#.utf8))
        #expect(documented.kind == "CUSTOM")
        let both = try PowerAuthJSON.decode(ActivationLayer1Request.self, from: Data(#"{"type":"RECOVERY","activationType":"CODE"}"#.utf8))
        #expect(both.kind == "RECOVERY")
        #expect(try PowerAuthJSON.decode(ActivationLayer1Request.self, from: Data("{}".utf8)).kind == nil)
    }
}
