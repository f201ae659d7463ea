import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Trusted devices and approvals: refused input")
struct DeviceErrorPathTests {
    @Test func refusedEnrolmentsAreSkippedWithoutAnError() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in

            // A key that is not EC P-256.
            let rewriting = RewritingTransport { request in
                guard request.url.path.hasSuffix("/device/enroll"), let body = request.body,
                    var json = try? JSONSerialization.jsonObject(with: body) as? [String: Any]
                else { return request }
                json["publicKey"] = ["kty": "RSA", "n": "AQAB", "e": "AQAB"]
                var changed = request
                changed.body = try? JSONSerialization.data(withJSONObject: json)
                return changed
            }
            let device = TestDevice()
            let keyway = try device.sdk(harness, transport: rewriting)
            _ = try await harness.signInSettingUpTotp(keyway, email: "rsa@example.com")
            _ = try await harness.tokens(keyway)
            let refused = try #require(rewriting.lastResponse(pathSuffix: "/device/enroll"))
            #expect(refused.status == 400)
            let problem = try WireCoding.makeDecoder().decode(Problem.self, from: refused.body)
            #expect(problem.code == .invalidRequest)
            #expect(problem.invalidFields?.map(\.name) == ["publicKey"])
            #expect(await keyway.trustedDeviceID(for: "rsa@example.com") == nil)

            // A name that is empty.
            var options = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: harness.clock)
            options.deviceTrust = DeviceTrustOptions(appIdentifier: "com.example.shop", storage: InMemorySecureStorage(), deviceName: " ")
            let unnamed = try KeywayClient(configID: TestServer.configId, baseURL: harness.server.baseURL, options: options)
            _ = try await harness.signInSettingUpTotp(unnamed, email: "noname@example.com")
            #expect(unnamed.flow.currentUpdate.completion != nil)
            #expect(await unnamed.trustedDeviceID(for: "noname@example.com") == nil)
        }
    }

    @Test func approvalEndpointsRefuseBadInputAndOtherUsersDevices() async throws {
        try await withTestServer(ApprovalTests.setUp()) { setup in
            let server = setup.harness.server
            let deviceId = try #require(await setup.trusted.trustedDeviceID(for: ApprovalTests.email))
            let json = ["Content-Type": "application/json", "X-Keyway-Config-Id": TestServer.configId]

            let tooLong = try await server.request("GET", "/v1/devices/\(deviceId)/approvals?wait=31", headers: json)
            #expect(tooLong.status == 400)
            let noConfig = try await server.request("GET", "/v1/devices/\(deviceId)/approvals")
            #expect(noConfig.status == 400)
            #expect(String(decoding: noConfig.body, as: UTF8.self).contains("missing_config_id"))

            _ = try await ApprovalTests.requestApproval(setup)
            let request = try #require(try await setup.trusted.pendingApprovals(for: ApprovalTests.email).first)
            let maybe = try await server.request(
                "POST", "/v1/approvals/\(request.id)", headers: json,
                body: try JSONSerialization.data(withJSONObject: ["deviceId": deviceId, "decision": "maybe", "signature": "x"]))
            #expect(maybe.status == 400)
            let unknown = try await server.request(
                "POST", "/v1/approvals/apr_unknown", headers: json,
                body: try JSONSerialization.data(withJSONObject: ["deviceId": deviceId, "decision": "approve", "signature": "x"]))
            #expect(unknown.status == 404)

            // Another user's trusted device cannot decide this user's request.
            let stranger = try TestDevice().sdk(setup.harness)
            _ = try await setup.harness.signInSettingUpTotp(stranger, email: "stranger@example.com")
            _ = try await setup.harness.tokens(stranger)
            do {
                try await stranger.decide(request, .approve, for: "stranger@example.com")
                Issue.record("Another user's device decided the request.")
            } catch KeywayError.problem(let problem) {
                #expect(problem.code == .invalidDeviceSignature)
            }

            // Polling a flow that waits for no approval is refused before any request.
            let other = try TestDevice().sdk(setup.harness, autoPoll: false)
            try await setup.harness.signInWithCode(other, email: ApprovalTests.email)
            await other.flow.pollApproval()
            #expect(other.flow.currentUpdate.errorInfo?.code == .actionUnavailable)
        }
    }

    @Test func sdkCallsRefuseWhatTheyCannotSend() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let plain = try harness.sdk()
            await #expect(throws: KeywayError.self) { try await plain.pendingApprovals(for: "a@example.com") }
            let keyway = try TestDevice().sdk(harness)
            do {
                _ = try await keyway.pendingApprovals(for: "a@example.com", waitSeconds: 31)
                Issue.record("A wait of 31 seconds was sent.")
            } catch KeywayError.invalidConfiguration {}
            do {
                _ = try await keyway.pendingApprovals(for: "a@example.com")
                Issue.record("An untrusted device listed approvals.")
            } catch KeywayError.invalidConfiguration {}
            let elsewhere = ApprovalQRData(
                server: "https://auth.elsewhere.example/", configID: TestServer.configId, approvalID: "apr_1", flowID: "flw_1",
                secret: "kqr_1")
            do {
                try await keyway.approve(qrData: elsewhere.text, for: "a@example.com")
                Issue.record("QR data of another server was approved.")
            } catch KeywayError.invalidConfiguration {}
        }
    }
}

/// The real transport, changing requests on their way and keeping the answers.
final class RewritingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `answers` is only touched under `lock`.
    private let inner = URLSessionTransport()
    private let rewrite: @Sendable (TransportRequest) -> TransportRequest
    private let lock = NSLock()
    private var answers: [(path: String, response: TransportResponse)] = []

    init(_ rewrite: @escaping @Sendable (TransportRequest) -> TransportRequest) {
        self.rewrite = rewrite
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let response = try await inner.send(rewrite(request))
        lock.withLock { answers.append((request.url.path, response)) }
        return response
    }

    func lastResponse(pathSuffix: String) -> TransportResponse? {
        lock.withLock { answers.last { $0.path.hasSuffix(pathSuffix) }?.response }
    }
}
