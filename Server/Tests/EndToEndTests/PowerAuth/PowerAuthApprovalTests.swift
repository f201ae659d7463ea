import Foundation
@testable import Keyway
import KeywayPowerAuth
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Keyway's own sensitive operations signed by an activated PowerAuth device: listing and
/// approving a sign-in on another device, and revoking a trusted device, with its signature in
/// place of a trusted device's key or an access token.
@Suite("PowerAuth devices approve sign-ins and revoke trusted devices")
struct PowerAuthApprovalTests {
    static let email = "device-owner@example.com"

    /// The sign-in of a new device (email code, then the approval asked for) up to its prompt.
    static func newDeviceSignIn(_ fixture: PowerAuthFixture, storage: InMemorySecureStorage) async throws
        -> (KeywayClient, number: String)
    {
        var options = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: fixture.clock)
        options.deviceTrust = DeviceTrustOptions(
            appIdentifier: "com.example.bank", storage: storage, keyStore: SoftwareDeviceKeyStore(storage: storage),
            deviceName: "New laptop")
        let keyway = try KeywayClient(configID: TestServer.configId, baseURL: fixture.server.baseURL, options: options)
        await keyway.flow.start(flowType: .signin, identifier: email)
        await keyway.flow.submitCode(try await fixture.server.latestCode(to: email))
        // The user has no authenticator: approval is the only second factor, asked for at once.
        guard case (let number, _, _)? = keyway.flow.currentUpdate.prompt?.awaitApproval else {
            throw TestFailure("Expected the approval prompt, got \(keyway.flow.currentUpdate)")
        }
        return (keyway, number)
    }

    /// `GET /v1/approvals` signed by the device with possession.
    static func pending(_ device: inout PowerAuthTestDevice) async throws -> [[String: Any]] {
        let header = try device.authorization(method: "GET", uriId: "/v1/approvals", body: Data(), factors: .possession)
        let answer = try await device.send("GET", "/v1/approvals", headers: ["X-PowerAuth-Authorization": header], body: nil)
        #expect(answer.status == 200, "\(answer.json)")
        return answer.json["approvals"] as? [[String: Any]] ?? []
    }

    /// `POST /v1/approvals/{id}` signed by the device.
    static func decide(
        _ device: inout PowerAuthTestDevice, approvalId: String, decision: String = "approve",
        factors: PowerAuthSignatureFactors = [.possession, .knowledge], signedFor: String? = nil
    ) async throws -> PowerAuthAnswer {
        let body = Data(#"{"decision":"\#(decision)"}"#.utf8)
        let header = try device.authorization(
            uriId: "/v1/approvals/\(signedFor ?? approvalId)", body: body, factors: factors)
        return try await device.post("/v1/approvals/\(approvalId)", headers: ["X-PowerAuth-Authorization": header], body: body)
    }

    @Test func anActivatedDeviceApprovesASignInAndRevokesTheDeviceItTrusted() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            #expect(
                try await fixture.admin("PUT", "/admin/applications/\(TestServer.configId)/policy", ApprovalTests.policy())
                    .status == 200)
            let storage = InMemorySecureStorage()
            let (laptop, number) = try await Self.newDeviceSignIn(fixture, storage: storage)

            let pending = try await Self.pending(&device)
            #expect(pending.count == 1)
            let approval = try #require(pending.first)
            #expect(approval["matchingNumber"] as? String == number)
            let approvalId = try #require(approval["id"] as? String)

            // Possession alone, or a signature made for another request, decides nothing.
            let weak = try await Self.decide(&device, approvalId: approvalId, factors: .possession)
            #expect(weak.status == 401)
            #expect(weak.errorCode == "POWERAUTH_AUTH_FAIL")
            let elsewhere = try await Self.decide(&device, approvalId: approvalId, signedFor: "apr_other")
            #expect(elsewhere.status == 401)
            try await device.synchronize()

            let approved = try await Self.decide(&device, approvalId: approvalId)
            #expect(approved.status == 200, "\(approved.json)")
            #expect(approved.json["decision"] as? String == "approve")
            let again = try await Self.decide(&device, approvalId: approvalId)
            #expect(again.status == 409, "\(again.json)")

            let update = try await ApprovalTests.settled(laptop, clock: fixture.clock)
            let completion = try #require(update.completion, "\(update)")
            _ = try await laptop.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))

            // The laptop is now a trusted device; the activated phone revokes it with two factors.
            let devices = try await fixture.admin("GET", "/admin/users/\(fixture.userId)/devices").json["devices"]
                as? [[String: Any]]
            let laptopId = try #require(devices?.first?["id"] as? String)
            func revoke(_ factors: PowerAuthSignatureFactors) async throws -> PowerAuthAnswer {
                let header = try device.authorization(
                    method: "DELETE", uriId: "/v1/me/devices/\(laptopId)", body: Data(), factors: factors)
                return try await device.send(
                    "DELETE", "/v1/me/devices/\(laptopId)", headers: ["X-PowerAuth-Authorization": header], body: nil)
            }
            #expect(try await revoke(.possession).status == 401)
            try await device.synchronize()
            #expect(try await revoke([.possession, .knowledge]).status == 204)
            #expect(
                (try await fixture.admin("GET", "/admin/users/\(fixture.userId)/devices").json["devices"] as? [Any])?.count
                    == 0)
            #expect(try await revoke([.possession, .knowledge]).status == 404)
        }
    }

    @Test func aDeviceOfAnotherUserCannotDecide() async throws {
        try await PowerAuthFixture.run { fixture in
            var owner = try await PowerAuthSignatureTests.activeDevice(fixture)
            // Another user of the project, with an activated device of their own.
            let other = try await PowerAuthFixture.signIn(fixture.server, clock: fixture.clock, email: "someone@example.com")
            var stranger = fixture.device()
            let answer = try await stranger.activate(type: "CUSTOM", identity: ["accessToken": other.response.accessToken.revealed])
            #expect(answer.status == 200, "\(answer.json)")
            #expect(
                try await fixture.admin("PUT", "/admin/applications/\(TestServer.configId)/policy", ApprovalTests.policy())
                    .status == 200)

            let (_, _) = try await Self.newDeviceSignIn(fixture, storage: InMemorySecureStorage())
            #expect(try await Self.pending(&stranger).isEmpty)
            let approvalId = try #require(try await Self.pending(&owner).first?["id"] as? String)
            let refused = try await Self.decide(&stranger, approvalId: approvalId)
            #expect(refused.status == 404, "\(refused.json)")
        }
    }
}
