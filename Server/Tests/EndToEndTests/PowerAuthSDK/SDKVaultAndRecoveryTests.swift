import Crypto
import Foundation
@testable import Keyway
import KeywayPowerAuth
import KeywayPowerAuthClient
import KeywayTestSupport
import Testing

/// The SDK's vault, device-key signatures, server-signed data, end-to-end encryption and
/// recovery against the real server.
@Suite("PowerAuth: the SDK's vault, encryption and recovery against the server")
struct SDKVaultAndRecoveryTests {
    static let password = SDKSignatureTests.password

    private func bytes(_ key: SymmetricKey) -> Data { key.withUnsafeBytes { Data($0) } }

    @Test func vaultKeysAreStableAcrossLaunchesAndDistinctPerIndex() async throws {
        try await SDKActivationFixture.run { fixture in
            let storage = InMemorySecureStorage()
            let code = try await fixture.code()
            let device = fixture.device(storage: storage)
            _ = try await device.create(with: .typedCode(code.code))
            try await device.commit(password: Self.password, biometry: true)
            let first = try await device.fetchEncryptionKey(index: 1, authentication: .password(Self.password))
            #expect(first.bitCount == 128)
            let relaunched = fixture.device(storage: storage)
            #expect(bytes(try await relaunched.fetchEncryptionKey(index: 1, authentication: .password(Self.password))) == bytes(first))
            let second = try await relaunched.fetchEncryptionKey(index: 2, authentication: .password(Self.password))
            #expect(bytes(second) != bytes(first))
            let wrong = await #expect(throws: ActivationError.self) {
                try await device.fetchEncryptionKey(index: 1, authentication: .password("0000"))
            }
            #expect(wrong?.code == "authentication_failed")
            #expect(try await device.fetchStatus().failedAttempts == 1)
        }
    }

    @Test func deviceKeySignaturesAndServerSignedDataVerify() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, activationId) = try await SDKSignatureTests.activated(fixture)
            let backend = try await SDKBackend.make(fixture)
            let data = Data(#"{"consent":"v2","user":"ada"}"#.utf8)
            let signature = try await device.signWithDevicePrivateKey(data, authentication: .password(Self.password))
            let verified = try await backend.call(
                "POST", "/v1/powerauth/device-signatures/verify",
                ["activationId": activationId, "data": data.base64EncodedString(), "signature": signature.base64EncodedString()])
            #expect(verified.status == 200, "\(verified.json)")
            #expect(verified.json["valid"] as? Bool == true, "\(verified.json)")
            var changed = data
            changed[2] ^= 0x01
            let refused = try await backend.call(
                "POST", "/v1/powerauth/device-signatures/verify",
                ["activationId": activationId, "data": changed.base64EncodedString(), "signature": signature.base64EncodedString()])
            #expect(refused.json["valid"] as? Bool == false, "\(refused.json)")
            // The device public key the backend reads verifies it locally too.
            let described = try await backend.call("GET", "/v1/powerauth/activations/\(activationId)")
            let devicePublicKey = try #require((described.json["devicePublicKey"] as? String).flatMap { Data(base64Encoded: $0) })
            let publicKey = try P256.Signing.PublicKey(
                x963Representation: try PowerAuthKeys.publicKey(devicePublicKey).x963Representation)
            #expect(publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: data))

            // Data the server signs, with the master key and with the activation's key.
            for key in [OfflineSigningKey.master, .activation] {
                var request: [String: Any] = ["data": data.base64EncodedString(), "key": key == .master ? "master" : "activation"]
                if key == .activation { request["activationId"] = activationId }
                let signed = try await backend.call("POST", "/v1/powerauth/server-signatures", request)
                #expect(signed.status == 200, "\(signed.json)")
                let serverSignature = try #require((signed.json["signature"] as? String).flatMap { Data(base64Encoded: $0) })
                #expect(try await device.verifyServerSignedData(data, signature: serverSignature, key: key))
                #expect(try await !device.verifyServerSignedData(changed, signature: serverSignature, key: key))
                #expect(try await !device.verifyServerSignedData(data, signature: serverSignature, key: key == .master ? .activation : .master))
            }
        }
    }

    @Test func sealedRequestsOpenWithTheEnvelopeKeyTheServerHandsTheBackend() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, activationId) = try await SDKSignatureTests.activated(fixture)
            let backend = try await SDKBackend.make(fixture)
            for scope in EncryptorScope.allCases {
                let plaintext = Data(#"{"scope":"\#(scope.rawValue)","amount":"42.00"}"#.utf8)
                let request = try await device.encryptor(scope: scope).seal(plaintext)
                let envelope = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
                var ask: [String: Any] = [
                    "applicationKey": fixture.configuration.applicationKey, "scope": scope.rawValue,
                    "temporaryKeyId": envelope["temporaryKeyId"] as Any, "ephemeralPublicKey": envelope["ephemeralPublicKey"] as Any,
                    "nonce": envelope["nonce"] as Any, "timestamp": envelope["timestamp"] as Any,
                ]
                if scope == .activation { ask["activationId"] = activationId }
                let keys = try await backend.call("POST", "/v1/powerauth/ecies/keys", ask)
                #expect(keys.status == 200, "\(keys.json)")
                // The backend's side: the server's envelope key opens the SDK's envelope…
                let envelopeKey = try EciesEnvelopeKey(
                    bytes: try #require((keys.json["envelopeKey"] as? String).flatMap { Data(base64Encoded: $0) }),
                    ephemeralPublicKey: try #require((envelope["ephemeralPublicKey"] as? String).flatMap { Data(base64Encoded: $0) }))
                let context = EciesContext(
                    version: .v33, envelopeKey: envelopeKey,
                    sharedInfo2Base: try #require((keys.json["sharedInfo2Base"] as? String).flatMap { Data(base64Encoded: $0) }),
                    associatedData: try #require((keys.json["associatedData"] as? String).flatMap { Data(base64Encoded: $0) }))
                let payload = EciesPayload(
                    encryptedData: try #require((envelope["encryptedData"] as? String).flatMap { Data(base64Encoded: $0) }),
                    mac: try #require((envelope["mac"] as? String).flatMap { Data(base64Encoded: $0) }),
                    ephemeralPublicKey: envelopeKey.ephemeralPublicKey,
                    nonce: (envelope["nonce"] as? String).flatMap { Data(base64Encoded: $0) },
                    timestamp: (envelope["timestamp"] as? NSNumber)?.uint64Value)
                #expect(try context.decrypt(payload, direction: .request) == plaintext)
                // …and its sealed answer opens in the SDK.
                let nonce = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
                let answer = try context.encrypt(
                    Data(#"{"ok":true}"#.utf8), direction: .response, nonce: nonce, timestamp: UInt64(fixture.clock.now().timeIntervalSince1970 * 1000))
                let answerBody = try JSONSerialization.data(withJSONObject: [
                    "encryptedData": answer.encryptedData.base64EncodedString(), "mac": answer.mac.base64EncodedString(),
                    "nonce": nonce.base64EncodedString(), "timestamp": answer.timestamp ?? 0,
                ])
                #expect(try request.openResponse(answerBody) == Data(#"{"ok":true}"#.utf8))
                // The same envelope's key is handed out once.
                let again = try await backend.call("POST", "/v1/powerauth/ecies/keys", ask)
                #expect(again.json["error"] as? String == "replayed_envelope", "\(again.json)")
            }
        }
    }

    @Test func theRecoveryCodeIsKeptSealedAndRecoversALostDevice() async throws {
        try await SDKActivationFixture.run { fixture in
            let code = try await fixture.code()
            let storage = InMemorySecureStorage()
            let lost = fixture.device(storage: storage)
            let pending = try await lost.create(with: .typedCode(code.code))
            let shown = try #require(pending.recovery)
            try await lost.commit(password: Self.password)
            #expect(try await lost.recoveryData(authentication: .password(Self.password)) == shown)
            _ = try await lost.requestToken(named: "balance", authentication: .possession)
            let lostHeader = try await lost.tokenHeader(named: "balance")

            // The device is lost; a new one recovers with the code and PUK read back.
            let replacement = fixture.device()
            let recovered = try await replacement.create(
                with: .recovery(code: shown.recoveryCode, puk: shown.puk.revealed), name: "Replacement")
            try await replacement.commit(password: "3141")
            #expect(recovered.activationID != pending.activationID)
            #expect(try await fixture.listed(pending.activationID)["status"] as? String == "REMOVED")
            #expect(try await fixture.listed(recovered.activationID)["status"] as? String == "ACTIVE")
            let newCode = try #require(recovered.recovery)
            #expect(newCode.recoveryCode != shown.recoveryCode)
            #expect(try await replacement.recoveryData(authentication: .password("3141")) == newCode)
            #expect(try await fixture.validate(replacement, .password("3141")).status == 200)
            // The old activation's tokens and signatures are dead.
            let backend = try await SDKBackend.make(fixture)
            #expect(try await backend.verifyToken(lostHeader.value)["valid"] as? Bool == false)
            #expect(try await lost.fetchStatus().state == .removed)
        }
    }

    @Test func aPostcardCodeIsConfirmedFromAnActivation() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, _) = try await SDKSignatureTests.activated(fixture)
            let postcard = try await fixture.admin(
                "POST", "/admin/users/\(fixture.userId)/recovery-codes", ["configId": TestServer.configId, "pukCount": 2])
            #expect(postcard.status == 201, "\(postcard.json)")
            let postcardCode = try #require(postcard.json["recoveryCode"] as? String)
            #expect(postcard.json["status"] as? String == "CREATED")
            #expect(try await device.confirmRecoveryCode(postcardCode, authentication: .password(Self.password)) == false)
            #expect(try await device.confirmRecoveryCode("R:" + postcardCode, authentication: .password(Self.password)) == true)
            let listed = try await fixture.admin("GET", "/admin/users/\(fixture.userId)/recovery-codes")
            let codes = listed.json["recoveryCodes"] as? [[String: Any]] ?? []
            #expect(codes.first { $0["recoveryCodeId"] as? String == postcard.json["recoveryCodeId"] as? String }?["status"] as? String == "ACTIVE")
            let unknown = await #expect(throws: ActivationError.self) {
                try await device.confirmRecoveryCode(ActivationCode.random().value, authentication: .password(Self.password))
            }
            guard case .server(400, "ERR_RECOVERY", _) = unknown else {
                Issue.record("expected ERR_RECOVERY, got \(String(describing: unknown))")
                return
            }
            // A confirmed postcard recovers a second device with its first PUK.
            let puks = postcard.json["puks"] as? [[String: Any]] ?? []
            let firstPUK = try #require(puks.first { $0["index"] as? Int == 1 }?["puk"] as? String)
            let second = fixture.device()
            let recovered = try await second.create(with: .recovery(code: postcardCode, puk: firstPUK))
            #expect(try await fixture.listed(recovered.activationID)["status"] as? String == "ACTIVE")
        }
    }
}
