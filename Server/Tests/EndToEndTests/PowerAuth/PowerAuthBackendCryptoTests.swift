import Crypto
import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("PowerAuth for an app's backend: envelope keys, activations' keys, device and server signatures")
struct PowerAuthBackendCryptoTests {
    /// What the backend sends the server about an envelope the device sealed.
    static func keyRequest(
        _ device: PowerAuthTestDevice, _ sealed: PowerAuthTestDevice.Sealed, activationScope: Bool
    ) -> [String: Any] {
        var request: [String: Any] = [
            "applicationKey": device.application.applicationKey, "scope": activationScope ? "activation" : "application",
            "temporaryKeyId": sealed.body["temporaryKeyId"]!, "ephemeralPublicKey": sealed.body["ephemeralPublicKey"]!,
            "nonce": sealed.body["nonce"]!, "timestamp": sealed.body["timestamp"]!,
        ]
        if activationScope { request["activationId"] = device.activationId! }
        return request
    }

    /// The backend's context from the server's answer.
    static func context(_ answer: PowerAuthAnswer, sealed: PowerAuthTestDevice.Sealed) throws -> EciesContext {
        let key = try #require((answer.json["envelopeKey"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(key.count == 48)
        let ephemeral = try #require((sealed.body["ephemeralPublicKey"] as? String).flatMap { Data(base64Encoded: $0) })
        return EciesContext(
            version: .v33, envelopeKey: try EciesEnvelopeKey(bytes: key, ephemeralPublicKey: ephemeral),
            sharedInfo2Base: try #require((answer.json["sharedInfo2Base"] as? String).flatMap { Data(base64Encoded: $0) }),
            associatedData: try #require((answer.json["associatedData"] as? String).flatMap { Data(base64Encoded: $0) }))
    }

    static func payload(_ body: [String: Any]) throws -> EciesPayload {
        EciesPayload(
            encryptedData: Data(base64Encoded: body["encryptedData"] as! String)!, mac: Data(base64Encoded: body["mac"] as! String)!,
            ephemeralPublicKey: Data(base64Encoded: body["ephemeralPublicKey"] as! String)!,
            nonce: Data(base64Encoded: body["nonce"] as! String)!, timestamp: UInt64(body["timestamp"] as! Int64))
    }

    @Test(arguments: [false, true])
    func theBackendOpensARequestAndSealsItsAnswerOnceWithTheEnvelopeKey(activationScope: Bool) async throws {
        try await PowerAuthFixture.run { fixture in
            let device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let backend = try await PowerAuthBackendClient.make(fixture)
            let key = try await device.temporaryKey(activationScope: activationScope)
            let request = Data(#"{"amount":"100.00","to":"CZ6508000000192000145399"}"#.utf8)
            let sealed = try device.seal(
                request, key: key, sharedInfo1: activationScope ? .activationScopeGeneric : .applicationScopeGeneric,
                activationScope: activationScope)

            let answer = try await backend.call("POST", "/v1/powerauth/ecies/keys", Self.keyRequest(device, sealed, activationScope: activationScope))
            #expect(answer.status == 200, "\(answer.json)")
            #expect(answer.json["version"] as? String == "3.3")
            #expect(answer.json["applicationId"] as? String == TestServer.configId)
            #expect(answer.json["activationId"] as? String == (activationScope ? device.activationId : nil))
            #expect(answer.json["userId"] as? String == (activationScope ? fixture.userId : nil))
            #expect(answer.json["sharedInfo2Base"] as? String == sealed.context.sharedInfo2Base.base64EncodedString())
            #expect(answer.json["associatedData"] as? String == sealed.context.associatedData.base64EncodedString())
            let context = try Self.context(answer, sealed: sealed)
            #expect(try context.decrypt(try Self.payload(sealed.body), direction: .request) == request)
            let response = Data(#"{"status":"paid"}"#.utf8)
            let nonce = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
            let sealedResponse = try context.encrypt(response, direction: .response, nonce: nonce, timestamp: milliseconds(fixture))
            let opened = try PowerAuthTestDevice.open(
                [
                    "encryptedData": sealedResponse.encryptedData.base64EncodedString(), "mac": sealedResponse.mac.base64EncodedString(),
                    "nonce": nonce.base64EncodedString(), "timestamp": Int64(milliseconds(fixture)),
                ], with: sealed.context)
            #expect(opened == response)

            // Each envelope's key is handed out once.
            let replayed = try await backend.call("POST", "/v1/powerauth/ecies/keys", Self.keyRequest(device, sealed, activationScope: activationScope))
            #expect(replayed.status == 400 && replayed.oauthError == "replayed_envelope", "\(replayed.json)")
            // No key reached the log.
            let log = fixture.server.logs.all.joined(separator: "\n")
            #expect(!log.contains(answer.json["envelopeKey"] as? String ?? "-"))
        }
    }

    @Test func staleUnknownExpiredForeignAndInactiveEnvelopesAreRefused() async throws {
        try await PowerAuthFixture.run { fixture in
            let device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let backend = try await PowerAuthBackendClient.make(fixture)
            func fresh(activationScope: Bool = true) async throws -> [String: Any] {
                let key = try await device.temporaryKey(activationScope: activationScope)
                let sealed = try device.seal(
                    Data("{}".utf8), key: key, sharedInfo1: activationScope ? .activationScopeGeneric : .applicationScopeGeneric,
                    activationScope: activationScope)
                var body = Self.keyRequest(device, sealed, activationScope: activationScope)
                // The server's clock (which the test moves), not the device's.
                body["timestamp"] = Int64(milliseconds(fixture))
                return body
            }
            func refusal(_ body: [String: Any], using client: PowerAuthBackendClient? = nil) async throws -> String? {
                let answer = try await (client ?? backend).call("POST", "/v1/powerauth/ecies/keys", body)
                #expect(answer.status == 400, "\(answer.json)")
                #expect(answer.json["error_description"] is String)
                return answer.oauthError
            }
            // Timestamps more than five minutes away.
            for offset: TimeInterval in [-301, 301] {
                var body = try await fresh()
                body["timestamp"] = Int64(milliseconds(fixture, offset: offset))
                #expect(try await refusal(body) == "stale_envelope")
            }
            // Another project's backend.
            let stranger = try await PowerAuthBackendClient.make(fixture, sameProject: false)
            #expect(try await refusal(try await fresh(), using: stranger) == "unknown_key")
            // An unknown temporary key; an activation-scope key asked for in application scope.
            var unknown = try await fresh()
            unknown["temporaryKeyId"] = UUID().uuidString
            #expect(try await refusal(unknown) == "unknown_key")
            var wrongScope = try await fresh()
            wrongScope["scope"] = "application"
            wrongScope["activationId"] = nil
            #expect(try await refusal(wrongScope) == "unknown_key")
            // A key of another activation of the application, asked for as this one's.
            let other = try await PowerAuthSignatureTests.activeDevice(fixture)
            let otherKey = try await other.temporaryKey(activationScope: true)
            var crossed = try await fresh()
            crossed["temporaryKeyId"] = otherKey.id
            #expect(try await refusal(crossed) == "unknown_key")
            // An expired temporary key (its envelope's timestamp still fresh).
            var expired = try await fresh(activationScope: false)
            fixture.clock.advance(by: 301)
            expired["timestamp"] = Int64(milliseconds(fixture))
            #expect(try await refusal(expired) == "unknown_key")
            // A blocked activation.
            let blockedBody = try await fresh()
            #expect(try await fixture.admin("POST", "/admin/activations/\(device.activationId!)/block").status == 200)
            #expect(try await refusal(blockedBody) == "inactive_activation")
            // Malformed: invalid_request, never 500.
            var malformed: [[String: Any]] = []
            for (field, value) in [
                ("scope", "global" as Any), ("ephemeralPublicKey", "AAAA"), ("nonce", "%%%"), ("timestamp", -1),
                ("applicationKey", "short"), ("temporaryKeyId", ""),
            ] {
                var body = try await fresh(activationScope: false)
                body[field] = value
                malformed.append(body)
            }
            var noActivation = try await fresh(activationScope: false)
            noActivation["scope"] = "activation"
            malformed.append(noActivation)
            for body in malformed {
                #expect(try await refusal(body) == "invalid_request", "\(body)")
            }
            for raw in ["{", "[]", #"{"scope":"application"}"#] {
                let answer = try await backend.post("/v1/powerauth/ecies/keys", raw: Data(raw.utf8))
                #expect(answer.status == 400 && answer.oauthError == "invalid_request", "\(raw)")
            }
            // Unauthenticated.
            let anonymous = try await fixture.server.request(
                "POST", "/v1/powerauth/ecies/keys", headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
            #expect(anonymous.status == 401)
        }
    }

    @Test func deviceSignaturesVerifyWithTheActivationsPublicKeyAndServerSignaturesWithTheServers() async throws {
        try await PowerAuthFixture.run { fixture in
            let device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            let backend = try await PowerAuthBackendClient.make(fixture)
            let stranger = try await PowerAuthBackendClient.make(fixture, sameProject: false)

            // The activation's keys, for local verification.
            let keys = try await backend.call("GET", "/v1/powerauth/activations/\(activationId)")
            #expect(keys.status == 200, "\(keys.json)")
            #expect(keys.json["activationId"] as? String == activationId)
            #expect(keys.json["userId"] as? String == fixture.userId)
            #expect(keys.json["applicationId"] as? String == TestServer.configId)
            #expect(keys.json["status"] as? String == "ACTIVE")
            #expect(keys.json["devicePublicKey"] as? String == device.devicePrivateKey.publicKey.compressedRepresentation.base64EncodedString())
            #expect(keys.json["serverPublicKey"] as? String == device.serverPublicKey?.x963Representation.base64EncodedString())
            #expect(try await stranger.call("GET", "/v1/powerauth/activations/\(activationId)").status == 404)
            #expect(try await backend.call("GET", "/v1/powerauth/activations/unknown").status == 404)

            // A signature by the device's private key.
            let data = Data("operation 42: pay 100.00 to CZ6508000000192000145399".utf8)
            let signing = try P256.Signing.PrivateKey(rawRepresentation: device.devicePrivateKey.rawRepresentation)
            let signature = try signing.signature(for: data).derRepresentation.base64EncodedString()
            func verify(_ data: Data, _ signature: String, using client: PowerAuthBackendClient? = nil) async throws -> PowerAuthAnswer {
                try await (client ?? backend).call(
                    "POST", "/v1/powerauth/device-signatures/verify",
                    ["activationId": activationId, "data": data.base64EncodedString(), "signature": signature])
            }
            let valid = try await verify(data, signature)
            #expect(valid.status == 200 && valid.json["valid"] as? Bool == true, "\(valid.json)")
            #expect(valid.json["userId"] as? String == fixture.userId)
            #expect(try await verify(data + Data([0]), signature).refusalCode == "invalid_signature")
            let otherKey = P256.Signing.PrivateKey()
            #expect(try await verify(data, try otherKey.signature(for: data).derRepresentation.base64EncodedString()).refusalCode == "invalid_signature")
            #expect(try await verify(data, Data("not DER".utf8).base64EncodedString()).refusalCode == "invalid_signature")
            #expect(try await verify(data, signature, using: stranger).refusalCode == "unknown_activation")
            #expect(try await verify(data, "%%%").status == 400)

            // Data signed by the server: the master key, and the activation's server key.
            let message = Data("server-signed offer".utf8)
            for body: [String: Any] in [
                ["data": message.base64EncodedString(), "key": "master"],
                ["data": message.base64EncodedString(), "key": "master", "activationId": activationId],
                ["data": message.base64EncodedString(), "key": "master", "applicationKey": fixture.application.applicationKey],
            ] {
                let answer = try await backend.call("POST", "/v1/powerauth/server-signatures", body)
                #expect(answer.status == 200 && answer.json["key"] as? String == "master", "\(answer.json)")
                let der = try #require((answer.json["signature"] as? String).flatMap { Data(base64Encoded: $0) })
                #expect(fixture.application.masterPublicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: der), for: message))
            }
            let byActivation = try await backend.call(
                "POST", "/v1/powerauth/server-signatures",
                ["data": message.base64EncodedString(), "key": "activation", "activationId": activationId])
            #expect(byActivation.status == 200, "\(byActivation.json)")
            let serverKey = try P256.Signing.PublicKey(x963Representation: try #require(device.serverPublicKey).x963Representation)
            let der = try #require((byActivation.json["signature"] as? String).flatMap { Data(base64Encoded: $0) })
            #expect(serverKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: der), for: message))
            #expect(!fixture.application.masterPublicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: der), for: message))
            // Refused: another project's activation, no activation, too much data, an unknown key.
            for body: [String: Any] in [
                ["data": message.base64EncodedString(), "key": "activation"],
                ["data": Data(count: 64 * 1024 + 1).base64EncodedString(), "key": "master"],
                ["data": message.base64EncodedString(), "key": "device"],
                ["data": "%%%", "key": "master"],
            ] {
                let answer = try await backend.call("POST", "/v1/powerauth/server-signatures", body)
                #expect(answer.status == 400 && answer.oauthError == "invalid_request", "\(answer.json)")
            }
            let foreign = try await stranger.call(
                "POST", "/v1/powerauth/server-signatures",
                ["data": message.base64EncodedString(), "key": "activation", "activationId": activationId])
            #expect(foreign.status == 400)
            let foreignMaster = try await stranger.call(
                "POST", "/v1/powerauth/server-signatures", ["data": message.base64EncodedString(), "key": "master"])
            #expect(foreignMaster.status == 400)

            // A blocked activation's device signatures are refused.
            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/block").status == 200)
            #expect(try await verify(data, signature).refusalCode == "activation_inactive")
            #expect(try await backend.call("GET", "/v1/powerauth/activations/\(activationId)").json["status"] as? String == "BLOCKED")
        }
    }
}
