import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("SMS through a webhook provider: signed deliveries, retries, failures, dead letters")
struct SMSDeliveryTests {
    static func policy(_ gateway: SMSGateway) -> [String: Any] {
        [
            "primaryMethods": ["smsOtp", "password"], "flowTypes": ["signin", "signup"],
            "delivery": ["sms": ["url": gateway.url, "signingSecret": gateway.secret, "timeoutSeconds": 5]],
        ]
    }

    @Test func aFailedAttemptIsRetriedWithBackoffWhileTheRequestWaits() async throws {
        try await withTestServer(SMSGateway().start()) { gateway in
            var limits = FlowLimits()
            limits.deliveryPatience = .seconds(20)
            try await withTestServer(AdaptiveHarness.start(policy: Self.policy(gateway), limits: limits)) { harness in
                let keyway = try harness.sdk()
                // The first attempt fails; the worker retries once the backoff has passed (the test moves
                // the server's clock on while the request waits).
                gateway.failNext(1)
                let ticking = Task {
                    while !Task.isCancelled {
                        harness.clock.advance(by: 1)
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                await keyway.flow.start(flowType: .signup, identifier: "+14155550188")
                ticking.cancel()
                #expect(keyway.flow.currentUpdate.enterCode?.channel == .sms, "\(keyway.flow.currentUpdate)")
                let requests = gateway.requests
                #expect(requests.map(\.answered) == [500, 200])
                #expect(Set(requests.map(\.idempotencyKey)).count == 1)
                #expect(requests.allSatisfy { $0.signatureValid })
                await keyway.flow.submitCode(try gateway.lastCode(to: "+14155550188"))
                #expect(keyway.flow.currentUpdate.prompt == .enterPassword(purpose: .create, minimumLength: 10))
            }
        }
    }

    @Test func aFailingGatewaySendsTheFlowBackThenItRecovers() async throws {
        try await withTestServer(SMSGateway().start()) { gateway in
            var limits = FlowLimits()
            limits.deliveryPatience = .milliseconds(300)
            try await withTestServer(AdaptiveHarness.start(policy: Self.policy(gateway), limits: limits)) { harness in
                let keyway = try harness.sdk()
                let phone = "+14155550142"

                // The gateway is down: the sign-up's first code cannot go out, nothing of the flow stays,
                // and the same request can be sent again.
                gateway.fail(true)
                await keyway.flow.start(flowType: .signup, identifier: phone)
                let down = try #require(keyway.flow.currentUpdate.errorInfo)
                #expect(down.code == .deliveryFailed)
                #expect(down.action == .retryRequest)
                #expect(try await harness.server.rowCount("flows") == 0)

                // It recovers: the code arrives signed, and the sign-up completes with it.
                gateway.fail(false)
                await keyway.flow.start(flowType: .signup, identifier: phone)
                #expect(keyway.flow.currentUpdate.enterCode?.channel == .sms)
                await keyway.flow.submitCode(try gateway.lastCode(to: phone))
                await keyway.flow.submitPassword("gateway-user-passphrase")
                #expect(keyway.flow.currentUpdate.completion != nil)
                #expect(gateway.requests.allSatisfy { $0.signatureValid })
                #expect(Set(gateway.requests.map(\.idempotencyKey)).count == gateway.requests.count)

                // Down again during a sign-in: the chosen method is unavailable, the flow is back on the
                // choice, and another method finishes the sign-in.
                gateway.fail(true)
                await keyway.flow.start(flowType: .signin, identifier: phone)
                await keyway.flow.selectMethod(id: "smsOtp")
                let unavailable = try #require(keyway.flow.currentUpdate.errorInfo)
                #expect(unavailable.code == .methodUnavailable)
                #expect(unavailable.action == .selectMethod)
                let step = try #require(await keyway.flow.currentStep)
                #expect(step.kind == .selectMethod)
                await keyway.flow.selectMethod(id: "password")
                await keyway.flow.submitPassword("gateway-user-passphrase")
                #expect(keyway.flow.currentUpdate.completion != nil)

                // The messages that could not go out are dead letters, visible to the administrator,
                // without their text and with the number masked.
                let dead = try await harness.server.admin("GET", "/admin/dead-letters?configId=\(TestServer.configId)")
                #expect(dead.status == 200)
                let letters = try #require(dead.json["deadLetters"] as? [[String: Any]])
                #expect(letters.count == 2)
                #expect(letters.allSatisfy { $0["recipient"] as? String == "+1••••••••42" })
                #expect(letters.allSatisfy { ($0["lastError"] as? String)?.contains("withdrawn") == true })
                #expect(try await harness.server.rowCount("delivery_outbox WHERE status = 'dead' AND body != ''") == 0)
            }
        }
    }
}
