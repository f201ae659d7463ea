import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Approvals: a trusted device lets a sign-in on a new device through")
struct ApprovalTests {
    static let email = "ann@example.com"

    static func policy(events: String? = nil, secret: String = "") -> [String: Any] {
        var policy: [String: Any] = [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["totp", "deviceApproval"], "mfaMode": "required",
            "flowTypes": ["signin", "accountManage"],
            "devices": ["enabled": true, "approvalPollIntervalSeconds": 1, "approvalLifetimeSeconds": 60],
        ]
        if let events { policy["delivery"] = ["events": ["url": events, "signingSecret": secret]] }
        return policy
    }

    /// A harness with one trusted device (`trusted`) for ``email`` and a new device's SDK.
    struct Setup: ScopedTestServer {
        let harness: AdaptiveHarness
        let trusted: KeywayClient
        let newDevice: KeywayClient
        let transport: PathCountingTransport
        let secret: String

        func stop() async { await harness.stop() }
    }

    static func setUp(policy: [String: Any] = policy(), autoPoll: Bool = true) async throws -> Setup {
        try await AdaptiveHarness.start(policy: policy).settingUp { harness in
            let trusted = try TestDevice().sdk(harness)
            let secret = try await harness.signInSettingUpTotp(trusted, email: email)
            _ = try await harness.tokens(trusted)
            let transport = PathCountingTransport()
            let newDevice = try TestDevice().sdk(harness, transport: transport, autoPoll: autoPoll)
            return Setup(harness: harness, trusted: trusted, newDevice: newDevice, transport: transport, secret: secret)
        }
    }

    /// Signs in on the new device up to the approval prompt; answers its matching number and QR data.
    static func requestApproval(_ setup: Setup) async throws -> (number: String, qrData: String) {
        try await setup.harness.signInWithCode(setup.newDevice, email: email)
        let choice = try #require(setup.newDevice.flow.currentUpdate.methodChoice)
        #expect(choice.methods.map(\.type) == [.totp, .deviceApproval])
        #expect(choice.purpose == .secondFactor)
        await setup.newDevice.flow.selectMethod(id: "deviceApproval")
        guard case (let number, let qrData, let expiresAt)? = setup.newDevice.flow.currentUpdate.prompt?.awaitApproval else {
            throw TestFailure("Expected the approval prompt, got \(setup.newDevice.flow.currentUpdate)")
        }
        #expect(expiresAt > setup.harness.clock.now())
        return (number, qrData.revealed)
    }

    /// Waits until the new device's flow leaves the approval prompt, moving the server's clock
    /// along (faster than real time) so its polls are never refused as too fast.
    static func settled(_ keyway: KeywayClient, clock: ManualClock) async throws -> FlowUpdate {
        for _ in 0..<300 {
            let update = keyway.flow.currentUpdate
            guard update == .loading || update.prompt?.kind == .awaitApproval else { return update }
            clock.advance(by: 0.1)
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("The approval never settled.")
    }

    @Test func aPushApprovalSignsTheNewDeviceInAndTrustsIt() async throws {
        try await withTestServer(Self.setUp()) { setup in
            let (number, _) = try await Self.requestApproval(setup)

            let pending = try await setup.trusted.pendingApprovals(for: Self.email)
            let request = try #require(pending.first)
            #expect(pending.count == 1)
            #expect(request.matchingNumber == number)
            #expect(request.applicationName.isEmpty == false)
            #expect(request.location == "127.0.0.x")
            #expect(request.configID == TestServer.configId)
            try await setup.trusted.decide(request, .approve, for: Self.email)

            let done = try await Self.settled(setup.newDevice, clock: setup.harness.clock)
            #expect(done.completion != nil, "got \(done)")
            let tokens = try await setup.harness.tokens(setup.newDevice)
            #expect(tokens.idToken.authenticationMethods == ["otp", "swk", "mfa"])
            // The approved device was enrolled too.
            #expect(await setup.newDevice.trustedDeviceID(for: Self.email) != nil)
            #expect(try await setup.trusted.pendingApprovals(for: Self.email).isEmpty)

            // A second decision of the same request is refused.
            do {
                try await setup.trusted.decide(request, .deny, for: Self.email)
                Issue.record("A decided request was decided again.")
            } catch KeywayError.problem(let problem) {
                #expect(problem.code == .approvalAlreadyDecided)
            }
        }
    }

    @Test func aDenialEndsTheSignInWithAbort() async throws {
        try await withTestServer(Self.setUp()) { setup in
            _ = try await Self.requestApproval(setup)
            let request = try #require(try await setup.trusted.pendingApprovals(for: Self.email).first)
            try await setup.trusted.decide(request, .deny, for: Self.email)
            let done = try await Self.settled(setup.newDevice, clock: setup.harness.clock)
            #expect(done.errorInfo?.code == .approvalDenied)
            #expect(done.errorInfo?.action == .abort)
        }
    }

    @Test func anExpiredRequestEndsWithRestartAndCannotBeApproved() async throws {
        try await withTestServer(Self.setUp()) { setup in
            _ = try await Self.requestApproval(setup)
            let request = try #require(try await setup.trusted.pendingApprovals(for: Self.email).first)
            setup.harness.clock.advance(by: 61)
            let done = try await Self.settled(setup.newDevice, clock: setup.harness.clock)
            #expect(done.errorInfo?.code == .approvalExpired)
            #expect(done.errorInfo?.action == .restartFlow)
            do {
                try await setup.trusted.decide(request, .approve, for: Self.email)
                Issue.record("An expired request was approved.")
            } catch KeywayError.problem(let problem) {
                #expect(problem.code == .approvalExpired)
            }
        }
    }

    @Test func aQRApprovalWorksOnceAndOnlyForItsOwnRequest() async throws {
        try await withTestServer(Self.setUp()) { setup in
            let (_, qrData) = try await Self.requestApproval(setup)
            let parsed = try #require(ApprovalQRData(qrData))
            #expect(parsed.server == setup.harness.server.baseURL.absoluteString)

            // A QR code whose secret was changed is not this request's.
            var forged = parsed
            forged.secret = "kqr_forged"
            do {
                try await setup.trusted.approve(qrData: forged.text, for: Self.email)
                Issue.record("A forged QR secret was accepted.")
            } catch KeywayError.problem(let problem) {
                #expect(problem.code == .approvalNotFound)
            }
            do {
                try await setup.trusted.approve(qrData: "https://example.com", for: Self.email)
                Issue.record("Foreign data was accepted.")
            } catch KeywayError.invalidConfiguration {}

            try await setup.trusted.approve(qrData: qrData, for: Self.email)
            #expect(try await Self.settled(setup.newDevice, clock: setup.harness.clock).completion != nil)
            do {
                try await setup.trusted.approve(qrData: qrData, for: Self.email)
                Issue.record("A QR code was used twice.")
            } catch KeywayError.problem(let problem) {
                #expect(problem.code == .approvalAlreadyDecided)
            }
        }
    }

    @Test func aSignedDecisionCannotBeReplayedForAnotherFlow() async throws {
        try await withTestServer(Self.setUp(autoPoll: false)) { setup in
            _ = try await Self.requestApproval(setup)
            let first = try #require(try await setup.trusted.pendingApprovals(for: Self.email).first)
            // Capture what the trusted device sends by deciding through a recording transport.
            let recorder = BodyRecordingTransport()
            var options = setup.trusted.options
            options.transport = recorder
            let recording = try KeywayClient(configID: TestServer.configId, baseURL: setup.harness.server.baseURL, options: options)
            try await recording.decide(first, .approve, for: Self.email)
            let body = try #require(recorder.lastBody(pathSuffix: "/v1/approvals/\(first.id)"))

            // A second sign-in waits for its own approval; the captured decision is worthless for it.
            let other = try TestDevice().sdk(setup.harness, autoPoll: false)
            try await setup.harness.signInWithCode(other, email: Self.email)
            await other.flow.selectMethod(id: "deviceApproval")
            let second = try #require(try await setup.trusted.pendingApprovals(for: Self.email).first { $0.id != first.id })
            let replayed = try await setup.harness.server.request(
                "POST", "/v1/approvals/\(second.id)", headers: ["Content-Type": "application/json"], body: body)
            #expect(replayed.status == 401)
            #expect(String(decoding: replayed.body, as: UTF8.self).contains("invalid_device_signature"))
            // The same body again on its own request: already decided.
            let again = try await setup.harness.server.request(
                "POST", "/v1/approvals/\(first.id)", headers: ["Content-Type": "application/json"], body: body)
            #expect(again.status == 409)
            // Manual polling: the first flow goes on once polled.
            await setup.newDevice.flow.pollApproval()
            #expect(setup.newDevice.flow.currentUpdate.completion != nil)
            // Polling faster than the interval is refused.
            await other.flow.pollApproval()
            await other.flow.pollApproval()
            #expect(other.flow.currentUpdate.errorInfo?.code == .slowDown)
            #expect(other.flow.currentUpdate.errorInfo?.action == .wait)
        }
    }

    @Test func pollingStopsOnCancelAndOnReset() async throws {
        try await withTestServer(Self.setUp()) { setup in
            let clock = setup.harness.clock
            func flowId() throws -> String { try #require(setup.newDevice.flow.currentUpdate.promptContext?.step.flowID) }
            func polls(_ flow: String) -> Int { setup.transport.count(suffix: "\(flow)/approval") }
            /// Waits until `flow` has polled `count` times, moving the server's clock along so its
            /// polls are never refused as too fast.
            func awaitPolls(_ flow: String, _ count: Int) async throws {
                try await waitUntil("flow \(flow) polled \(count) times") {
                    clock.advance(by: 0.1)
                    return polls(flow) >= count
                }
            }

            // Once cancel has returned, the cancelled flow sends no poll: the next flow polls twice,
            // a second or more apart, longer than the cancelled one's next poll would have taken.
            _ = try await Self.requestApproval(setup)
            let cancelled = try flowId()
            await setup.newDevice.flow.cancel()
            let atCancel = polls(cancelled)
            _ = try await Self.requestApproval(setup)
            let resetFlow = try flowId()
            try await awaitPolls(resetFlow, 2)
            #expect(polls(cancelled) == atCancel)

            // The same once reset has returned.
            await setup.newDevice.flow.reset()
            let atReset = polls(resetFlow)
            // The cancelled flow's request was withdrawn; the reset one's waits until it expires.
            #expect(try await setup.trusted.pendingApprovals(for: Self.email).count == 1)

            // Without interruption it keeps polling, each poll a second or more after the last.
            let asked = ContinuousClock.now
            let (number, _) = try await Self.requestApproval(setup)
            let kept = try flowId()
            try await awaitPolls(kept, 3)
            #expect(ContinuousClock.now - asked >= .seconds(3), "three polls came in less than three seconds")
            #expect(polls(resetFlow) == atReset)

            // Once the approval completed the flow, it holds no approval step, so no poll can follow.
            let request = try #require(
                try await setup.trusted.pendingApprovals(for: Self.email).last { $0.matchingNumber == number })
            try await setup.trusted.decide(request, .approve, for: Self.email)
            #expect(try await Self.settled(setup.newDevice, clock: clock).completion != nil)
            let after = polls(kept)
            #expect(await setup.newDevice.flow.currentStep?.kind != .awaitApproval)
            #expect(polls(kept) == after)
        }
    }

    @Test func pollingStopsAtExpiryWhenTheServerIsGone() async throws {
        try await withTestServer(Self.setUp()) { setup in
            _ = try await Self.requestApproval(setup)
            await setup.harness.server.stop()
            // Held, so that no server of a test running beside this one answers the polls.
            let down = try HeldPort(setup.harness.server.port)
            defer { down.release() }
            setup.harness.clock.advance(by: 61)
            let done = try await Self.settled(setup.newDevice, clock: setup.harness.clock)
            #expect(done.errorInfo?.code == .approvalExpired)
            #expect(done.errorInfo?.action == .restartFlow)
            // The flow was put aside with its step: no poll can follow, and none did.
            let polls = setup.transport.count(suffix: "/approval")
            #expect(await setup.newDevice.flow.currentStep == nil)
            #expect(setup.transport.count(suffix: "/approval") == polls)
        }
    }

    @Test func aLongPollReturnsWhenARequestArrivesAndTheBackendHearsOfIt() async throws {
        try await withTestServer(SMSGateway().start()) { gateway in
            try await withTestServer(Self.setUp(policy: Self.policy(events: gateway.url, secret: gateway.secret))) { setup in
                let trusted = setup.trusted
                let server = setup.harness.server
                let recorded = try await server.rowCount("device_request_signatures")
                let waiting = Task { try await trusted.pendingApprovals(for: Self.email, waitSeconds: 30) }
                // The server records a list request's signature just before it starts waiting.
                try await waitUntil("the long poll is waiting on the server") {
                    try await server.rowCount("device_request_signatures") > recorded
                }
                let started = ContinuousClock.now
                let (number, _) = try await Self.requestApproval(setup)
                let pending = try await waiting.value
                #expect(pending.map(\.matchingNumber) == [number])
                // Answered on the request's arrival, well before the 30 seconds it would wait.
                #expect(ContinuousClock.now - started < .seconds(25))

                // The project's backend got a signed approval.requested event.
                try await waitUntil("the event reached the backend") { !gateway.requests.isEmpty }
                let event = try #require(gateway.requests.first)
                #expect(event.signatureValid)
                let json = try #require(try JSONSerialization.jsonObject(with: Data(event.body.utf8)) as? [String: Any])
                #expect(json["type"] as? String == "approval.requested")
                #expect(json["matchingNumber"] as? String == number)
                #expect(json["approvalId"] as? String == pending.first?.id)

                // An unsigned or stale list request is refused.
                let deviceId = try #require(await trusted.trustedDeviceID(for: Self.email))
                let unsigned = try await setup.harness.server.request(
                    "GET", "/v1/devices/\(deviceId)/approvals", headers: ["X-Keyway-Config-Id": TestServer.configId])
                #expect(unsigned.status == 401)

                // A signed list request is answered once: replaying it is refused.
                let recorder = BodyRecordingTransport()
                var options = trusted.options
                options.transport = recorder
                let recording = try KeywayClient(configID: TestServer.configId, baseURL: setup.harness.server.baseURL, options: options)
                _ = try await recording.pendingApprovals(for: Self.email)
                let headers = try #require(recorder.lastHeaders(pathSuffix: "/approvals"))
                let replayed = try await setup.harness.server.request(
                    "GET", "/v1/devices/\(deviceId)/approvals", headers: headers)
                #expect(replayed.status == 401)

                // A signature of a time too far from the server's is refused.
                let stale = setup.harness.clock.now().addingTimeInterval(-600)
                var staleOptions = trusted.options
                staleOptions.clock = FixedClock(date: stale)
                let late = try KeywayClient(configID: TestServer.configId, baseURL: setup.harness.server.baseURL, options: staleOptions)
                do {
                    _ = try await late.pendingApprovals(for: Self.email)
                    Issue.record("A stale signed request was answered.")
                } catch KeywayError.problem(let problem) {
                    #expect(problem.code == .invalidDeviceSignature)
                }
            }
        }
    }
}

/// A clock that stands still.
struct FixedClock: KeywayClock {
    let date: Date
    func now() -> Date { date }
}

/// The real transport, keeping the bodies sent.
final class BodyRecordingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `sent` is only touched under `lock`.
    private let inner = URLSessionTransport()
    private let lock = NSLock()
    private var sent: [(path: String, headers: [String: String], body: Data?)] = []

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        lock.withLock { sent.append((request.url.path, request.headers, request.body)) }
        return try await inner.send(request)
    }

    func lastHeaders(pathSuffix: String) -> [String: String]? {
        lock.withLock { sent.last { $0.path.hasSuffix(pathSuffix) }?.headers }
    }

    func lastBody(pathSuffix: String) -> Data? {
        lock.withLock { sent.last { $0.path.hasSuffix(pathSuffix) }?.body ?? nil }
    }
}
