import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("PowerAuth malformed input: 400 with the published error body, never a crash or a 500")
struct PowerAuthMalformedInputTests {
    /// Expects the published error body with a 400.
    static func expectInvalid(_ answer: PowerAuthAnswer, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(answer.status == 400, "\(what): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))", sourceLocation: sourceLocation)
        #expect(answer.json["status"] as? String == "ERROR", "\(what)", sourceLocation: sourceLocation)
        let object = answer.json["responseObject"] as? [String: Any]
        #expect((object?["code"] as? String)?.isEmpty == false, "\(what)", sourceLocation: sourceLocation)
        #expect((object?["message"] as? String)?.isEmpty == false, "\(what)", sourceLocation: sourceLocation)
    }

    @Test func malformedBodiesOfEveryEndpoint() async throws {
        try await PowerAuthFixture.run { fixture in
            let device = fixture.device()
            let bodies: [(String, Data)] = [
                ("empty", Data()), ("not JSON", Data("{".utf8)), ("array", Data("[]".utf8)),
                ("wrong types", Data(#"{"requestObject":{"jwt":5,"activationId":[],"challenge":{}}}"#.utf8)),
                ("binary", Data((0..<200).map { UInt8($0) })),
            ]
            for path in ["/pa/v3/keystore/create", "/pa/v3/activation/status", "/pa/v3/activation/create"] {
                for (name, body) in bodies {
                    let answer = try await device.post(path, headers: device.encryptionHeader(), body: body)
                    Self.expectInvalid(answer, "\(path) \(name)")
                }
            }
            let oversized = Data(repeating: UInt8(ascii: "a"), count: 70_000)
            Self.expectInvalid(try await device.post("/pa/v3/activation/status", body: oversized), "oversized")
        }
    }

    @Test func malformedBodiesOfTheTokenRecoveryAndBackendEndpoints() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let bodies: [(String, Data)] = [
                ("empty", Data()), ("not JSON", Data("{".utf8)), ("array", Data("[]".utf8)),
                ("wrong types", Data(#"{"requestObject":{"tokenId":5},"temporaryKeyId":[],"nonce":{}}"#.utf8)),
                ("binary", Data((0..<200).map { UInt8($0) })),
            ]
            for path in ["/pa/v3/token/create", "/pa/v3/token/remove", "/pa/v3/recovery/confirm"] {
                for (name, body) in bodies {
                    // Unsigned, then signed: malformed either way, and nothing counted.
                    Self.expectInvalid(try await device.post(path, body: body), "\(path) \(name) unsigned")
                    let header = try device.authorization(uriId: "/pa/token/create", body: body, factors: .possession)
                    Self.expectInvalid(try await device.post(path, headers: ["X-PowerAuth-Authorization": header], body: body), "\(path) \(name)")
                }
            }
            #expect(try await device.status().failedAttempts == 0)
            try await device.synchronize()
            // Well sealed and signed, but the plaintext is not what the endpoint reads.
            for (path, uriId, sharedInfo1, plaintext) in [
                ("/pa/v3/recovery/confirm", "/pa/recovery/confirm", EciesSharedInfo1.confirmRecoveryCode, ["recoveryCode": 5] as [String: Any]),
                ("/pa/v3/vault/unlock", "/pa/vault/unlock", .vaultUnlock, ["reason": ["ADD_BIOMETRY"]]),
            ] {
                let (answer, _) = try await device.sealedSigned(
                    plaintext, path: path, uriId: uriId, sharedInfo1: sharedInfo1, factors: [.possession, .knowledge])
                Self.expectInvalid(answer, "\(path) plaintext")
            }

            let backend = try await PowerAuthBackendClient.make(fixture)
            for path in [
                "/v1/powerauth/ecies/keys", "/v1/powerauth/tokens/verify", "/v1/powerauth/device-signatures/verify",
                "/v1/powerauth/server-signatures",
            ] {
                for (name, body) in bodies + [("wrong field types", Data(#"{"data":5,"key":[],"activationId":{},"authorization":1}"#.utf8))] {
                    let answer = try await backend.post(path, raw: body)
                    #expect(answer.status == 400 && answer.oauthError == "invalid_request", "\(path) \(name): \(answer.status)")
                }
            }
            let long = try await backend.call("GET", "/v1/powerauth/activations/" + String(repeating: "a", count: 300))
            #expect(long.status == 404)
        }
    }

    @Test func malformedStatusAndKeystoreRequests() async throws {
        try await PowerAuthFixture.run { fixture in
            let device = fixture.device()
            func status(_ object: [String: Any]) async throws -> PowerAuthAnswer {
                try await device.post("/pa/v3/activation/status", body: try JSONSerialization.data(withJSONObject: ["requestObject": object]))
            }
            let challenge = Data(count: 16).base64EncodedString()
            Self.expectInvalid(try await status(["activationId": "x", "challenge": "not base64!"]), "bad base64 challenge")
            Self.expectInvalid(try await status(["activationId": "x", "challenge": Data(count: 15).base64EncodedString()]), "short challenge")
            Self.expectInvalid(try await status(["activationId": "x", "challenge": Data(count: 17).base64EncodedString()]), "long challenge")
            Self.expectInvalid(try await status(["challenge": challenge]), "no activation ID")
            Self.expectInvalid(try await status(["activationId": String(repeating: "a", count: 65), "challenge": challenge]), "long ID")
            let unknown = try await status(["activationId": UUID().uuidString.lowercased(), "challenge": challenge])
            #expect(unknown.status == 400 && unknown.errorCode == "ERR_ACTIVATION")

            func keystore(_ jwt: String) async throws -> PowerAuthAnswer {
                try await device.post("/pa/v3/keystore/create", body: try JSONSerialization.data(withJSONObject: ["requestObject": ["jwt": jwt]]))
            }
            for jwt in ["", "a.b", "a.b.c", "....", String(repeating: "x", count: 9000), "eyJhbGciOiJIUzI1NiJ9.e30.AAAA"] {
                Self.expectInvalid(try await keystore(jwt), "jwt \(jwt.prefix(20))")
            }
            // A JWT signed with another secret.
            let claims = TemporaryKeyClaims(applicationKey: fixture.application.applicationKey, challenge: "c")
            let forged = TemporaryKeyJWT.request(claims, key: .init(size: .bits128))
            let refused = try await keystore(forged)
            #expect(refused.status == 400 && refused.errorCode == "ERR_TEMPORARY_KEY")
        }
    }

    @Test func malformedEncryptionHeadersAndEnvelopes() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = fixture.device()
            let (_, code) = try await fixture.activationCode()
            let request = try await device.activationRequest(type: "CODE", identity: ["code": code])
            let appKey = fixture.application.applicationKey
            let headers = [
                "", "PowerAuth", "Basic abc", "PowerAuth version=\"3.3\"", "PowerAuth application_key=\"\(appKey)\"",
                "PowerAuth version=\"3.2\", application_key=\"\(appKey)\"",
                "PowerAuth version=\"4.0\", application_key=\"\(appKey)\"",
                "PowerAuth version=\"3.3\", application_key=\"not-base64\"",
                "PowerAuth version=\"3.3\", application_key=\"\(Data(count: 8).base64EncodedString())\"",
                "PowerAuth version=\"3.3\", application_key=\"\(appKey)", "PowerAuth version=3.3",
                "PowerAuth version=\"3.3\", version=\"3.3\", application_key=\"\(appKey)\"",
                "PowerAuth version=\"3.3\", application_key=\"\(appKey)\", extra=\"" + String(repeating: "a", count: 5000) + "\"",
            ]
            for header in headers {
                let answer = try await device.post(
                    "/pa/v3/activation/create", headers: ["X-PowerAuth-Encryption": header], body: request.body)
                Self.expectInvalid(answer, "header \(header.prefix(60))")
            }
            Self.expectInvalid(try await device.post("/pa/v3/activation/create", body: request.body), "no header")
            let unknownApp = try await device.post(
                "/pa/v3/activation/create",
                headers: ["X-PowerAuth-Encryption": "PowerAuth version=\"3.3\", application_key=\"\(Data(count: 16).base64EncodedString())\""],
                body: request.body)
            Self.expectInvalid(unknownApp, "unknown application key")

            let envelope = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            var variants: [(String, [String: Any])] = []
            for field in ["temporaryKeyId", "ephemeralPublicKey", "encryptedData", "mac", "nonce", "timestamp"] {
                var missing = envelope
                missing[field] = nil
                variants.append(("no \(field)", missing))
            }
            for (field, value) in [
                ("ephemeralPublicKey", "%%%"), ("ephemeralPublicKey", Data(count: 32).base64EncodedString()),
                ("ephemeralPublicKey", Data([2] + [UInt8](repeating: 0xFF, count: 32)).base64EncodedString()),
                ("encryptedData", Data(count: 15).base64EncodedString()), ("encryptedData", "abc"),
                ("mac", Data(count: 31).base64EncodedString()), ("nonce", Data(count: 12).base64EncodedString()),
                ("temporaryKeyId", "unknown-key"), ("temporaryKeyId", String(repeating: "k", count: 100)),
                ("mac", Data(count: 32).base64EncodedString()),
                ("encryptedData", Data(count: 32).base64EncodedString()),
            ] as [(String, Any)] {
                var changed = envelope
                changed[field] = value
                variants.append(("\(field)=\(String(describing: value).prefix(20))", changed))
            }
            var timestamp = envelope
            timestamp["timestamp"] = "yesterday"
            variants.append(("timestamp as text", timestamp))
            for (name, body) in variants {
                let answer = try await device.post(
                    "/pa/v3/activation/create", headers: device.encryptionHeader(),
                    body: try JSONSerialization.data(withJSONObject: body))
                Self.expectInvalid(answer, name)
            }
            // A nonce changed in transit breaks the MAC.
            var nonce = envelope
            nonce["nonce"] = Data(repeating: 9, count: 16).base64EncodedString()
            let tampered = try await device.post(
                "/pa/v3/activation/create", headers: device.encryptionHeader(), body: try JSONSerialization.data(withJSONObject: nonce))
            #expect(tampered.status == 400 && tampered.errorCode == "ERR_ENCRYPTION")
            // The untouched request still activates: nothing above used the code.
            #expect(try await device.activate(type: "CODE", identity: ["code": code]).status == 200)
        }
    }

    @Test func malformedSignatureHeaders() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let id = try #require(device.activationId)
            let key = fixture.application.applicationKey
            let nonce = Data(count: 16)
            let good = Data(count: 32).base64EncodedString()
            let headers = [
                "", "PowerAuth", "Bearer x",
                PowerAuthTestDevice.header(activationId: id, applicationKey: key, nonce: nonce, factors: [.possession, .knowledge], signature: good, version: "3.0"),
                PowerAuthTestDevice.header(activationId: id, applicationKey: key, nonce: nonce, factors: [.possession, .knowledge], signature: good, version: "3.1"),
                PowerAuthTestDevice.header(activationId: id, applicationKey: key, nonce: Data(count: 8), factors: [.possession, .knowledge], signature: good),
                PowerAuthTestDevice.header(activationId: id, applicationKey: key, nonce: nonce, factors: [.possession, .knowledge], signature: "12345678-12345678"),
                PowerAuthTestDevice.header(activationId: id, applicationKey: key, nonce: nonce, factors: [.possession, .knowledge], signature: Data(count: 16).base64EncodedString()),
                PowerAuthTestDevice.header(activationId: id, applicationKey: key, nonce: nonce, factors: .possession, signature: good),
                PowerAuthTestDevice.header(activationId: id, applicationKey: "x", nonce: nonce, factors: .possession, signature: Data(count: 16).base64EncodedString()),
                PowerAuthTestDevice.header(activationId: String(repeating: "i", count: 80), applicationKey: key, nonce: nonce, factors: .possession, signature: Data(count: 16).base64EncodedString()),
                "PowerAuth pa_activation_id=\"\(id)\", pa_application_key=\"\(key)\", pa_nonce=\"\(nonce.base64EncodedString())\", pa_signature_type=\"knowledge_possession\", pa_signature=\"\(good)\", pa_version=\"3.3\"",
                "PowerAuth pa_activation_id=\"\(id)\", pa_signature_type=\"possession\"",
                "PowerAuth pa_activation_id=\"\(id)\" pa_application_key",
            ]
            for header in headers {
                let answer = try await device.post(
                    "/pa/v3/signature/validate", headers: ["X-PowerAuth-Authorization": header], body: Data("{}".utf8))
                Self.expectInvalid(answer, "header \(header.prefix(80))")
            }
            let missing = try await device.post("/pa/v3/signature/validate", body: Data("{}".utf8))
            Self.expectInvalid(missing, "no header")
            // None of these reached the signature check: nothing was counted.
            #expect(try await device.status().failedAttempts == 0)
            #expect(try await device.validate([.possession, .knowledge]).status == 200)
        }
    }
}
