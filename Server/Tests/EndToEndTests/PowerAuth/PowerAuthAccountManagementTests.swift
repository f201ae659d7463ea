import Foundation
@testable import Keyway
import KeywayPowerAuth
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import KeywayUI
import Testing

/// Account management on the flow API makes a code for another device where the application uses
/// device activation: after a fresh verification, the account step shows the code, and a second
/// device activates with it.
@Suite("PowerAuth codes from account management (flow API)")
struct PowerAuthAccountManagementTests {
    static var policy: [String: Any] { ["primaryMethods": ["emailOtp"], "flowTypes": ["signin", "accountManage"]] }

    /// Signs `email` in and opens account management; answers the client and its operations.
    static func manage(_ server: TestServer, clock: ManualClock, email: String) async throws -> (KeywayClient, [String]) {
        let keyway = try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let done = try #require(keyway.flow.currentUpdate.completion)
        let tokens = try await keyway.tokens.exchange(authCode: done.authCode, codeVerifier: try #require(done.codeVerifier))
        let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
        try await session.save(tokens)
        try await session.manageAccount()
        guard case (_, let operations)? = keyway.flow.currentUpdate.prompt?.manageAccount else {
            throw TestFailure("Expected the account overview, got \(keyway.flow.currentUpdate)")
        }
        return (keyway, operations.map(\.name))
    }

    @Test func aFreshlyVerifiedUserMakesACodeThatActivatesASecondDevice() async throws {
        try await PowerAuthFixture.run { fixture in
            #expect(
                try await fixture.admin("PUT", "/admin/applications/\(TestServer.configId)/policy", Self.policy).status == 200)
            let email = "device-owner@example.com"
            let (keyway, operations) = try await Self.manage(fixture.server, clock: fixture.clock, email: email)
            #expect(operations.contains("createActivationCode"))

            // Making a credential for a new device needs the user to prove who they are again.
            await keyway.flow.perform(operation: "createActivationCode")
            if let choice = keyway.flow.currentUpdate.methodChoice {
                #expect(choice.purpose == .reverification)
                await keyway.flow.selectMethod(id: "emailOtp")
            }
            await keyway.flow.submitCode(try await fixture.server.latestCode(to: email))
            guard case _? = keyway.flow.currentUpdate.prompt?.manageAccount,
                let context = keyway.flow.currentUpdate.promptContext
            else { throw TestFailure("Expected the account overview, got \(keyway.flow.currentUpdate)") }
            let issued = try #require(context.step.payload.manageAccount?.activationCode)
            #expect(issued.qrPayload.revealed.hasPrefix(issued.activationCode.revealed + "#"))
            #expect(issued.expiresAt > fixture.clock.now())

            // The screen model shows it, as the CLI and the SwiftUI views draw it.
            let screen = Screen.make(update: keyway.flow.currentUpdate, context: nil)
            #expect(screen.displays.contains(.emphasis(
                label: "Activation code for your other device (until \(issued.expiresAt.formatted(date: .omitted, time: .shortened)))",
                value: issued.activationCode.revealed)))
            #expect(screen.displays.contains(.qrCode(label: "Or scan it with that device", data: issued.qrPayload)))

            var device = fixture.device()
            let answer = try await device.activate(type: "CODE", identity: ["code": issued.activationCode.revealed])
            #expect(answer.status == 200, "\(answer.json)")
            #expect(try await device.status().state == .active)

            // The code is shown until the next operation, then gone.
            await keyway.flow.perform(operation: "finish")
            #expect(keyway.flow.currentUpdate.promptContext?.step.payload.manageAccount?.activationCode == nil)
        }
    }

    @Test func anApplicationWithoutDeviceActivationDoesNotOfferIt() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, limits: .unthrottledPowerAuth, adminToken: testAdminToken)) { server in
            try await server.setPolicy(Self.policy)
            let (keyway, operations) = try await Self.manage(server, clock: clock, email: "plain@example.com")
            #expect(!operations.contains("createActivationCode"))
            let step = try #require(keyway.flow.currentUpdate.promptContext?.step)
            let flowId = step.flowID
            let token = try #require(step.flowToken?.revealed)
            // The SDK refuses an operation the step does not offer; the server does too.
            await keyway.flow.perform(operation: "createActivationCode")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .actionUnavailable)
            let refused = try await server.request(
                "POST", "/v1/flows/\(flowId)/manage/createActivationCode",
                headers: ["X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": token])
            #expect(refused.status == 409, "\(String(decoding: refused.body, as: UTF8.self))")
        }
    }
}
