import Foundation

/// Apple's App Attest as the SDK uses it: a key in the Secure Enclave that Apple attests belongs
/// to a genuine instance of the app, and assertions made with it. ``DeviceCheckAppAttestProvider``
/// is the implementation on Apple platforms; tests supply their own.
///
/// Each call mirrors one of `DCAppAttestService`; key IDs are the base64 strings it uses.
public protocol AppAttestProvider: Sendable {
    /// Whether this device and app can attest keys (`false` in the Simulator, in most app
    /// extensions, on devices without a Secure Enclave, and off Apple platforms).
    var isSupported: Bool { get async }
    /// Creates a new key and returns its ID.
    ///
    /// - Returns: The new key's ID (base64).
    /// - Throws: The service's error (for example when App Attest is unavailable).
    func generateKey() async throws -> String
    /// Asks Apple to attest the key `keyID` for `clientDataHash`.
    ///
    /// - Parameters:
    ///   - keyID: The ID ``generateKey()`` returned.
    ///   - clientDataHash: The SHA-256 hash of the server's challenge.
    /// - Returns: The attestation object (CBOR).
    /// - Throws: The service's error (an invalid key, a network failure reaching Apple).
    func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data
    /// Signs `clientDataHash` with the key `keyID`.
    ///
    /// - Parameters:
    ///   - keyID: The ID of an attested key.
    ///   - clientDataHash: The SHA-256 hash of the client data the request defines.
    /// - Returns: The assertion (CBOR).
    /// - Throws: The service's error (an invalid or unknown key).
    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data
}

/// Turns on App Attest: the SDK registers an attested key with the server once, then proves
/// with assertions that device enrolments and code redemptions come from a genuine app instance,
/// when the application's policy asks for it.
///
/// ```swift
/// options.appAttest = AppAttestOptions(provider: DeviceCheckAppAttestProvider(), storage: keychain)
/// ```
public struct AppAttestOptions: Sendable {
    /// The App Attest service.
    public var provider: any AppAttestProvider
    /// Where the registered key's ID is kept.
    public var storage: any SecureStorage

    /// Options that turn App Attest on.
    ///
    /// - Parameters:
    ///   - provider: The App Attest service (``DeviceCheckAppAttestProvider`` on Apple platforms).
    ///   - storage: Where the registered key's ID is kept (the Keychain on Apple platforms).
    public init(provider: any AppAttestProvider, storage: any SecureStorage) {
        self.provider = provider
        self.storage = storage
    }
}
