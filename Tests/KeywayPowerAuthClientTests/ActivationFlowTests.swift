import Crypto
import Foundation
@testable import KeywayPowerAuthClient
import Testing

@Suite("Activation, commit and removal")
struct ActivationFlowTests {
    @Test func codeActivationRoundTripsThroughBothEciesLayers() async throws {
        let fixture = try Fixture()
        let code = ActivationCode.random()
        await fixture.peer.addCode(code)
        let signature = try ActivationSignature.sign(code: code, masterPrivateKey: fixture.peer.masterKey)
        let pending = try await fixture.activation.create(
            with: .scannedCode(code.value + "#" + signature.base64EncodedString(), otp: "4321"), name: "Ada's phone", extras: "x")

        // The server decrypted both layers and read what the device meant to send.
        let request = try #require(await fixture.peer.activationRequests.last)
        #expect(request.type == "CODE")
        #expect(request.identityAttributes == ["code": code.value])
        #expect(request.name == "Ada's phone")
        #expect(request.otp == "4321")
        #expect(request.deviceInfo == "TestDevice1,1")
        #expect(request.extras == "x")
        #expect(request.platform == DeviceActivationOptions.currentPlatform)
        #expect(await fixture.peer.lastActivationHeaders[PowerAuthEncryptionHeader.name]
            == "PowerAuth version=\"3.3\", application_key=\"\(fixture.peer.applicationKey)\"")
        #expect(await fixture.peer.paths == ["/pa/v3/keystore/create", "/pa/v3/activation/create"])

        // The fingerprint is the one the server computes of the same keys.
        let server = try #require(await fixture.peer.activation(pending.activationID))
        #expect(pending.fingerprint == server.fingerprint)
        #expect(pending.fingerprint.count == 8 && pending.fingerprint.allSatisfy(\.isNumber))
        #expect(pending.recovery?.puk.revealed == "0123456789")
        #expect(try await fixture.activation.state() == .pendingCommit(activationID: pending.activationID, fingerprint: pending.fingerprint))

        // Signing waits for the commit.
        await #expect(throws: ActivationError.notCommitted) {
            try await fixture.activation.sign(method: "POST", uriID: "/x", body: Data(), with: .possession)
        }
        try await fixture.activation.commit(password: "1234")
        #expect(try await fixture.activation.state()
            == .active(activationID: pending.activationID, fingerprint: pending.fingerprint, hasBiometry: false))
        await #expect(throws: ActivationError.alreadyCommitted) { try await fixture.activation.commit(password: "1") }
        await #expect(throws: ActivationError.activationExists) { try await fixture.activation.create(with: .typedCode(code.value)) }
    }

    @Test func customAndRecoveryCredentialsTravelAsIdentityAttributes() async throws {
        let fixture = try Fixture()
        // The signed-in session's token, as `create(signedInWith:keyway:)` presents it.
        _ = try await fixture.activation.create(
            presenting: .accessToken(Sensitive("token-123"), dpopProof: "proof.jwt"), name: nil, extras: nil)
        #expect(await fixture.peer.activationRequests.last?.type == "CUSTOM")
        #expect(await fixture.peer.activationRequests.last?.identityAttributes == ["accessToken": "token-123"])
        #expect(await fixture.peer.lastActivationHeaders["DPoP"] == "proof.jwt")
        try await fixture.activation.removeLocally()

        let code = ActivationCode.random()
        _ = try await fixture.activation.create(with: .recovery(code: code.value, puk: "0123456789"))
        #expect(await fixture.peer.activationRequests.last?.type == "RECOVERY")
        #expect(await fixture.peer.activationRequests.last?.identityAttributes == ["recoveryCode": code.value, "puk": "0123456789"])
    }

    @Test func anUnknownCodeIsTheServersRefusal() async throws {
        let fixture = try Fixture()
        let error = await #expect(throws: ActivationError.self) {
            try await fixture.activation.create(with: .typedCode(ActivationCode.random().value))
        }
        #expect(error == .server(status: 400, code: "ERR_ACTIVATION", message: "refused"))
        #expect(try await fixture.activation.state() == .none)
    }

    @Test func storageIsNamespacedPerAppAndConfigurationAndHoldsNoPlainDeviceKey() async throws {
        let fixture = try Fixture(appIdentifier: "com.example.one")
        let id = try await fixture.activate()
        let other = DeviceActivation(
            configuration: try fixture.peer.configuration(), appIdentifier: "com.example.two", storage: fixture.storage,
            options: DeviceActivationOptions(transport: fixture.peer))
        #expect(try await other.state() == .none)
        #expect(await fixture.storage.keys() == ["keyway.activation.com.example.one.cfg_peer.record"])
        #expect(fixture.activation.biometryAccount(activationID: id) == "keyway.activation.com.example.one.cfg_peer.\(id).biometry")

        // Another app activates beside it; removing one leaves the other.
        let code = ActivationCode.random()
        await fixture.peer.addCode(code)
        _ = try await other.create(with: .typedCode(code.value))
        #expect(await fixture.storage.keys().count == 2)
        try await other.removeLocally()
        #expect(try await fixture.activation.activationID() == id)

        // The device private key is stored only under the vault key: its scalar is nowhere in the
        // storage, and the vault key (which only the server holds) opens the stored ciphertext.
        let server = try #require(await fixture.peer.activation(id))
        let stored = await fixture.storage.allBytes()
        let record = try #require(try JSONSerialization.jsonObject(with: stored) as? [String: Any])
        let encrypted = try #require((record["encryptedDevicePrivateKey"] as? String).flatMap { Data(base64Encoded: $0) })
        let devicePrivate = try PowerAuthKeyProtection.decryptDevicePrivateKey(encrypted, vaultKey: server.vaultKey)
        #expect(devicePrivate.publicKey.x963Representation == server.devicePublicKey.x963Representation)
        let scalar = devicePrivate.rawRepresentation
        #expect(stored.range(of: scalar) == nil)
        #expect(stored.range(of: Data(scalar.base64EncodedString().utf8)) == nil)
        #expect(record["masterSecret"] == nil && record["vaultKey"] == nil && record["pendingKnowledgeKey"] == nil)
    }

    @Test func removeOnTheServerTakesTwoFactors() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate(password: "1234")
        await #expect(throws: ActivationError.self) { try await fixture.activation.remove(with: .possession) }
        await #expect(throws: ActivationError.authenticationFailed(code: "POWERAUTH_AUTH_FAIL", message: "refused")) {
            try await fixture.activation.remove(with: .password("9999"))
        }
        #expect(try await fixture.activation.activationID() == id)
        try await fixture.activation.remove(with: .password("1234"))
        #expect(await fixture.peer.activation(id)?.state == .removed)
        #expect(try await fixture.activation.state() == .none)
    }
}
