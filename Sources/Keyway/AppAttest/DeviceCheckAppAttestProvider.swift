// Built for iOS and macOS (the package's platforms) and visionOS; not for tvOS, where App Attest
// needs tvOS 15 and a package that declares no tvOS floor builds for older versions.
#if canImport(DeviceCheck) && (os(iOS) || os(macOS) || os(visionOS))
    import DeviceCheck
    import Foundation

    /// App Attest through `DCAppAttestService.shared` (iOS 14, macOS 11, visionOS 1).
    /// The app needs the App Attest entitlement (`com.apple.developer.devicecheck.appattest-environment`,
    /// `development` or `production`), and the server's policy must name the same environment.
    public struct DeviceCheckAppAttestProvider: AppAttestProvider {
        /// The provider of `DCAppAttestService.shared`.
        public init() {}

        /// `DCAppAttestService.shared.isSupported`.
        public var isSupported: Bool {
            get async { DCAppAttestService.shared.isSupported }
        }

        /// Creates a new App Attest key.
        ///
        /// - Returns: The new key's ID (base64).
        /// - Throws: The `DCError` of the service (for example `featureUnsupported`).
        public func generateKey() async throws -> String {
            try await DCAppAttestService.shared.generateKey()
        }

        /// Asks Apple to attest the key `keyID` for `clientDataHash`.
        ///
        /// - Parameters:
        ///   - keyID: The ID ``generateKey()`` returned.
        ///   - clientDataHash: The SHA-256 hash of the server's challenge.
        /// - Returns: The attestation object (CBOR).
        /// - Throws: The `DCError` of the service (an invalid key, a failure reaching Apple).
        public func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.attestKey(keyID, clientDataHash: clientDataHash)
        }

        /// Signs `clientDataHash` with the key `keyID`.
        ///
        /// - Parameters:
        ///   - keyID: The ID of an attested key.
        ///   - clientDataHash: The SHA-256 hash of the request's client data.
        /// - Returns: The assertion (CBOR).
        /// - Throws: The `DCError` of the service (an invalid or unknown key).
        public func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
            try await DCAppAttestService.shared.generateAssertion(keyID, clientDataHash: clientDataHash)
        }
    }
#endif
