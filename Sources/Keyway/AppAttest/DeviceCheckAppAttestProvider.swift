#if canImport(DeviceCheck) && (os(iOS) || os(macOS) || os(tvOS) || os(visionOS))
    import DeviceCheck
    import Foundation

    /// App Attest through `DCAppAttestService.shared` (iOS 14, macOS 11, tvOS 15, visionOS 1).
    /// The app needs the App Attest entitlement (`com.apple.developer.devicecheck.appattest-environment`,
    /// `development` or `production`), and the server's policy must name the same environment.
    public struct DeviceCheckAppAttestProvider: AppAttestProvider {
        public init() {}

        public var isSupported: Bool {
            get async { DCAppAttestService.shared.isSupported }
        }

        public func generateKey() async throws -> String {
            try await DCAppAttestService.shared.generateKey()
        }

        public func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.attestKey(keyID, clientDataHash: clientDataHash)
        }

        public func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.generateAssertion(keyID, clientDataHash: clientDataHash)
        }
    }
#endif
