import Foundation

/// Turns on trusted devices: after a second factor the SDK enrols this device (a P-256 key that
/// never leaves its ``DeviceKeyStore``), and later sign-ins prove the device instead of asking for
/// the second factor, when the application's policy allows it. The app renders nothing for this;
/// the SDK answers the server's `deviceEnroll` and `deviceChallenge` steps by itself.
///
/// Keys and records are namespaced by ``appIdentifier``, the config ID and the user (the
/// identifier the user signs in with), so one user in two apps, or in two projects of one app,
/// never shares a key.
///
/// ```swift
/// // Linux, servers, the CLI: an encrypted file and software keys.
/// let storage = try FileSecureStorage(directory: folder, namespace: "devices", keySource: .keyFile(keyFile))
/// options.deviceTrust = DeviceTrustOptions(appIdentifier: "com.example.shop", storage: storage)
/// // Apple platforms: the Keychain and the Secure Enclave.
/// let keychain = KeychainSecureStorage(service: "com.example.shop.keyway")
/// options.deviceTrust = DeviceTrustOptions(
///     appIdentifier: "com.example.shop", storage: keychain, keyStore: SecureEnclaveDeviceKeyStore(storage: keychain))
/// ```
public struct DeviceTrustOptions: Sendable {
    /// The app's identifier (its bundle identifier): part of every key and record name.
    public var appIdentifier: String
    /// Where the device's record (its server-side ID) is kept.
    public var storage: any SecureStorage
    /// Where the device key lives.
    public var keyStore: any DeviceKeyStore
    /// The name the server shows for this device ("Alice's iPhone"), 1…100 characters.
    public var deviceName: String

    /// Options that turn trusted devices on.
    ///
    /// - Parameters:
    ///   - appIdentifier: The app's identifier (its bundle identifier).
    ///   - storage: Where the device's record is kept.
    ///   - keyStore: Where the device key lives; `nil` keeps software keys in `storage`
    ///     (``SoftwareDeviceKeyStore``).
    ///   - deviceName: The name the server shows for this device, cut to 100 characters; `nil` uses
    ///     the host name.
    public init(
        appIdentifier: String, storage: any SecureStorage, keyStore: (any DeviceKeyStore)? = nil,
        deviceName: String? = nil
    ) {
        self.appIdentifier = appIdentifier
        self.storage = storage
        self.keyStore = keyStore ?? SoftwareDeviceKeyStore(storage: storage)
        let host = ProcessInfo.processInfo.hostName
        self.deviceName = String((deviceName ?? (host.isEmpty ? "This device" : host)).prefix(100))
    }
}
