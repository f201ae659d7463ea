import Crypto
import CryptoExtras
import Foundation
import KeywayPowerAuthClient
import Testing

@Suite("Status, counter resynchronization, password and biometry")
struct StatusAndPasswordTests {
    @Test func statusDecodesTheBlob() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate()
        let status = try await fixture.activation.fetchStatus()
        #expect(status.activationID == id)
        #expect(status.state == .active)
        #expect(status.failedAttempts == 0)
        #expect(status.maxFailedAttempts == 5)
        #expect(status.counter == .inStep)
        // A failed attempt shows.
        await #expect(throws: ActivationError.self) { try await fixture.activation.validatePassword("wrong") }
        let after = try await fixture.activation.fetchStatus()
        #expect(after.failedAttempts == 1)
        #expect(after.remainingAttempts == 4)
        // A refused signature does not move the server's counter: the device is one step ahead.
        #expect(after.counter == .deviceAhead(steps: 1))
    }

    @Test func theDeviceCatchesUpWhenTheServerIsAhead() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate()
        await fixture.peer.advanceCounter(of: id, by: 3)
        #expect(try await fixture.activation.fetchStatus().counter == .resynchronized(steps: 3))
        #expect(try await fixture.activation.fetchStatus().counter == .inStep)
        // The next signature is in step with the server again.
        try await fixture.activation.validatePassword("1234")
        #expect(try await fixture.activation.fetchStatus().counter == .inStep)
    }

    @Test func aDeviceAheadIsReportedNotMoved() async throws {
        let fixture = try Fixture()
        try await fixture.activate()
        for _ in 0..<2 { _ = try await fixture.activation.sign(method: "POST", uriID: "/x", body: Data(), with: .possession) }
        #expect(try await fixture.activation.fetchStatus().counter == .deviceAhead(steps: 2))
        // A signature within the window catches the server up.
        try await fixture.activation.validatePassword("1234")
        #expect(try await fixture.activation.fetchStatus().counter == .inStep)
        for _ in 0..<25 { _ = try await fixture.activation.sign(method: "POST", uriID: "/x", body: Data(), with: .possession) }
        #expect(try await fixture.activation.fetchStatus().counter == .outOfSync)
    }

    @Test func aStatusBlobOfOtherKeysIsRefused() async throws {
        let fixture = try Fixture()
        try await fixture.activate()
        let other = try Fixture()
        try await other.activate()
        // The other peer answers with its own activation's blob under its own keys.
        let status = DeviceActivation(
            configuration: try fixture.peer.configuration(), appIdentifier: "com.example.app", storage: fixture.storage,
            options: DeviceActivationOptions(transport: StatusForwarder(peer: other.peer, activationID: try #require(await other.activation.activationID()))))
        let error = await #expect(throws: ActivationError.self) { try await status.fetchStatus() }
        #expect(error?.code == "invalid_response")
    }

    @Test func passwordChangeRewrapsTheKnowledgeKey() async throws {
        let fixture = try Fixture()
        try await fixture.activate(password: "1234")
        // A wrong old password changes nothing.
        await #expect(throws: ActivationError.self) { try await fixture.activation.changePassword(from: "9999", to: "5678") }
        try await fixture.activation.validatePassword("1234")

        try await fixture.activation.changePassword(from: "1234", to: "5678")
        try await fixture.activation.validatePassword("5678")
        // The old password no longer unwraps the key: its signatures fail at the server.
        await #expect(throws: ActivationError.authenticationFailed(code: "POWERAUTH_AUTH_FAIL", message: "refused")) {
            try await fixture.activation.validatePassword("1234")
        }
        // A fresh salt: the wrapped key and salt differ from before.
        let wraps = await fixture.storage.writes.compactMap { StoredRecord.field("knowledge", in: $0.data) as? [String: Any] }
        let salts = Set(wraps.compactMap { $0["salt"] as? String })
        #expect(salts.count == 2)
    }

    @Test func biometryIsAddedThroughTheVaultAndRemoved() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate(password: "1234")
        await #expect(throws: ActivationError.self) {
            try await fixture.activation.sign(method: "POST", uriID: "/x", body: Data(), with: .biometry(reason: "Pay"))
        }
        await #expect(throws: ActivationError.self) { try await fixture.activation.addBiometry(password: "0000") }
        try await fixture.activation.addBiometry(password: "1234")
        #expect(await fixture.peer.paths.suffix(2) == ["/pa/v3/keystore/create", "/pa/v3/vault/unlock"])
        #expect(await fixture.biometry.accounts() == [fixture.activation.biometryAccount(activationID: id)])
        #expect(try await fixture.activation.state() == .active(
            activationID: id, fingerprint: try #require(await fixture.peer.activation(id)).fingerprint, hasBiometry: true))

        let body = Data("{}".utf8)
        let header = try await fixture.activation.sign(method: "POST", uriID: "/pa/signature/validate", body: body, with: .biometry(reason: "Pay"))
        let response = try await fixture.peer.send(TransportRequest(
            method: "POST", url: fixture.peer.baseURL.appendingPathComponent("pa/v3/signature/validate"),
            headers: [PowerAuthAuthorizationHeader.name: header.value], body: body))
        #expect(response.status == 200)

        try await fixture.activation.removeBiometry()
        #expect(await fixture.biometry.accounts().isEmpty)
        await #expect(throws: ActivationError.self) {
            try await fixture.activation.sign(method: "POST", uriID: "/x", body: Data(), with: .biometry(reason: "Pay"))
        }
    }

    @Test func biometryAtCommitAndARefusedCheck() async throws {
        let fixture = try Fixture(biometry: SoftwareBiometry(check: { $0 != "refuse" }))
        try await fixture.activate(password: "1234", biometry: true)
        await #expect(throws: ActivationError.biometry(.notAuthenticated)) {
            try await fixture.activation.sign(method: "POST", uriID: "/x", body: Data(), with: .biometry(reason: "refuse"))
        }
        _ = try await fixture.activation.sign(method: "POST", uriID: "/x", body: Data(), with: .biometry(reason: "ok"))
    }
}

/// Answers status requests with another activation's blob.
struct StatusForwarder: HTTPTransport {
    let peer: ProtocolPeer
    let activationID: String

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let body = try JSONSerialization.data(withJSONObject: ["requestObject": [
            "activationId": activationID, "challenge": Data(count: 16).base64EncodedString(),
        ]])
        return try await peer.send(TransportRequest(method: "POST", url: request.url, headers: request.headers, body: body))
    }
}
