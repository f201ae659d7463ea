import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// A hardware key store that refuses every new key, as the Secure Enclave does for an app without
/// its entitlement.
struct RefusingHardwareKeyStore: DeviceKeyStore {
    struct Refused: Error, CustomStringConvertible {
        var description: String { "missing entitlement (OSStatus -34018)" }
    }

    var isHardwareBacked: Bool { true }
    func key(named name: String) async throws -> (any DeviceKey)? { nil }
    func createKey(named name: String) async throws -> any DeviceKey { throw Refused() }
    func deleteKey(named name: String) async throws {}
}

@Suite("Device keys: a hardware store that refuses falls back to a software key, said by an event")
struct DeviceKeyFallbackTests {
    @Test func theDeviceEnrolsWithASoftwareKeyAndProvesItNextTime() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let storage = InMemorySecureStorage()
            var options = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: harness.clock)
            options.deviceTrust = DeviceTrustOptions(
                appIdentifier: "com.example.shop", storage: storage, keyStore: RefusingHardwareKeyStore(),
                deviceName: "A phone without the entitlement")
            let keyway = try KeywayClient(configID: TestServer.configId, baseURL: harness.server.baseURL, options: options)
            let events = Collected<KeywayEvent>()
            let listening = Task { for await event in keyway.events { events.append(event) } }
            defer { listening.cancel() }

            _ = try await harness.signInSettingUpTotp(keyway, email: "fallback@example.com")
            let first = try await harness.tokens(keyway)
            let deviceId = try #require(await keyway.trustedDeviceID(for: "fallback@example.com"))
            try await waitUntil("the fallback event arrived") { events.all.contains { $0.name == .deviceKeyFallback } }
            let fallback = try #require(events.all.first { $0.name == .deviceKeyFallback })
            #expect(fallback.data["reason"]?.contains("-34018") == true)
            // The server records what the key really is.
            let listed = try await keyway.session(holding: first).trustedDevices()
            #expect(listed.map(\.id) == [deviceId])
            #expect(listed.first?.hardwareBacked == false)

            // The next sign-in proves the device with the software key.
            harness.clock.advance(by: 60)
            try await harness.signInWithCode(keyway, email: "fallback@example.com")
            let second = try await harness.tokens(keyway)
            #expect(second.idToken.authenticationMethods == ["otp", "swk", "mfa"])
        }
    }
}
