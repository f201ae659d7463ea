import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("PowerAuth failed signatures: throttled per client network before they count")
struct PowerAuthThrottleTests {
    /// A possession-only signature of random bytes for `activationId`, as a stranger who knows only
    /// the ID sends it, from `source`.
    static func stranger(
        _ fixture: PowerAuthFixture, _ activationId: String, from source: String = "127.0.0.1"
    ) async throws -> (status: Int, headers: [String: String], code: String?) {
        let random = { Data((0..<16).map { _ in UInt8.random(in: 0...255) }) }
        let body = Data("{\"amount\":100}".utf8)
        let header = PowerAuthTestDevice.header(
            activationId: activationId, applicationKey: fixture.application.applicationKey, nonce: random(),
            factors: .possession, signature: random().base64EncodedString())
        let answer = try await fixture.server.request(
            "POST", "/pa/v3/signature/validate",
            headers: ["X-PowerAuth-Authorization": header, "Content-Type": "application/json"], body: body, from: source)
        return (answer.status, answer.headers, PowerAuthAnswer(status: answer.status, body: answer.body).errorCode)
    }

    @Test func anActivationIDAloneCannotBlockTheActivation() async throws {
        try await PowerAuthFixture.run(limits: FlowLimits()) { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            let limits = RateLimits()
            // The first failures of a network count, as the protocol counts them.
            for attempt in 1...limits.powerAuthFailuresPerActivation {
                let refused = try await Self.stranger(fixture, activationId)
                #expect(refused.status == 401 && refused.code == "POWERAUTH_AUTH_FAIL")
                #expect(Int(try await device.status().failedAttempts) == attempt)
            }
            // Past the network's share: 429 with Retry-After, and the failure is not counted.
            for _ in 0..<5 {
                let throttled = try await Self.stranger(fixture, activationId)
                #expect(throttled.status == 429 && throttled.code == "POWERAUTH_AUTH_FAIL")
                let retryAfter = try #require(throttled.headers.first { $0.key.lowercased() == "retry-after" }?.value)
                #expect((1...Int(limits.window)).contains(Int(retryAfter) ?? 0), "\(retryAfter)")
            }
            var blob = try await device.status()
            #expect(blob.state == .active && Int(blob.failedAttempts) == limits.powerAuthFailuresPerActivation)
            // No failure moved the server's counter: the device's own signatures are accepted, and
            // a two-factor one resets the count.
            #expect(try device.counterDistance(blob) == 0)
            #expect(try await device.validate([.possession, .knowledge]).status == 200)
            #expect(try await device.status().failedAttempts == 0)
            // Another network has its own share; once the window has passed, this one's counts again.
            #expect(try await Self.stranger(fixture, activationId, from: "127.0.0.2").status == 401)
            #expect(try await Self.stranger(fixture, activationId).status == 429)
            fixture.clock.advance(by: limits.window)
            #expect(try await Self.stranger(fixture, activationId).status == 401)
            blob = try await device.status()
            #expect(blob.state == .active && blob.failedAttempts == 2)
        }
    }

    @Test func oneNetworkHasABudgetOverAllActivations() async throws {
        var limits = FlowLimits()
        limits.rateLimits.powerAuthFailuresPerAddress = 4
        try await PowerAuthFixture.run(limits: limits) { fixture in
            var first = try await PowerAuthSignatureTests.activeDevice(fixture)
            let second = try await PowerAuthSignatureTests.activeDevice(fixture)
            let one = try #require(first.activationId), two = try #require(second.activationId)
            for _ in 0..<2 { #expect(try await Self.stranger(fixture, one).status == 401) }
            for _ in 0..<2 { #expect(try await Self.stranger(fixture, two).status == 401) }
            // The network's fifth failure, on either activation, is refused uncounted.
            #expect(try await Self.stranger(fixture, one).status == 429)
            #expect(try await first.status().failedAttempts == 2)
            // A right signature from the throttled network is still accepted.
            try await first.synchronize()
            #expect(try await first.validate([.possession, .knowledge]).status == 200)
        }
    }
    @Test func oneNetworkMakesABoundedNumberOfTemporaryKeys() async throws {
        var limits = FlowLimits.unthrottledPowerAuth
        limits.rateLimits.powerAuthTemporaryKeysPerAddress = 3
        try await PowerAuthFixture.run(limits: limits) { fixture in
            let device = fixture.device()
            let before = try await fixture.server.rowCount("powerauth_temporary_keys")
            for _ in 0..<3 { _ = try await device.temporaryKey() }
            // The application secret signs the request, and every copy of the app holds it: past the
            // network's share nothing more is kept.
            let challenge = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            let jwt = TemporaryKeyJWT.request(
                TemporaryKeyClaims(applicationKey: fixture.application.applicationKey, activationID: nil, challenge: challenge),
                key: try TemporaryKeyJWT.requestSigningKey(applicationSecret: fixture.application.applicationSecret, transportKey: nil))
            let body = try JSONSerialization.data(withJSONObject: ["requestObject": ["jwt": jwt]])
            let refused = try await fixture.server.request(
                "POST", "/pa/v3/keystore/create", headers: ["Content-Type": "application/json"], body: body)
            #expect(refused.status == 429, "\(String(decoding: refused.body, as: UTF8.self))")
            #expect(PowerAuthAnswer(status: refused.status, body: refused.body).errorCode == "ERR_TEMPORARY_KEY")
            #expect(refused.headers.contains { $0.key.lowercased() == "retry-after" })
            #expect(try await fixture.server.rowCount("powerauth_temporary_keys") == before + 3)
            // Another network has its own share.
            let other = try await fixture.server.request(
                "POST", "/pa/v3/keystore/create", headers: ["Content-Type": "application/json"], body: body, from: "127.0.0.2")
            #expect(other.status == 200)
        }
    }
}
