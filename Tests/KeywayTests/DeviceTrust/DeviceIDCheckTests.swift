import Foundation
import KeywayProtocol
import Testing

@testable import Keyway

@Suite("Trusted devices: a device ID is checked before anything is sent")
struct DeviceIDCheckTests {
    /// A transport that records whether anything was sent.
    final class NothingSent: HTTPTransport, @unchecked Sendable {
        // @unchecked: `sent` is only touched under `lock`.
        private let lock = NSLock()
        private var sent = false
        var anything: Bool { lock.withLock { sent } }

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            lock.withLock { sent = true }
            throw KeywayError.networkFailure("No server in this test.")
        }
    }

    @Test func aMalformedDeviceIDIsRefusedWithoutARequest() async throws {
        let transport = NothingSent()
        let keyway = try KeywayClient(
            configID: "cfg_test", baseURL: URL(string: "https://auth.example.com")!,
            options: KeywayOptions(transport: transport))
        for id in ["../me", "a/b", ""] {
            await #expect(throws: KeywayError.invalidConfiguration("The device ID is malformed.")) {
                try await keyway.tokenClient.revokeTrustedDevice(id: id, accessToken: Sensitive("kat_x"))
            }
        }
        #expect(!transport.anything)
    }
}
