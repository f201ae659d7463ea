import Crypto
import Foundation

/// What the SDK keeps about this device's trust for one user, app and project: the server's ID
/// of the device and the name of its key.
struct DeviceRecord: Codable, Sendable, Equatable {
    var version = 1
    /// The server the device is trusted by.
    var server: String
    var configId: String
    var deviceId: String
    var keyName: String
}

/// The names under which one user's device trust is kept.
struct DeviceNamespace: Sendable, Equatable {
    let recordKey: String
    let keyName: String

    /// The namespace of `identifier` in `appIdentifier` for `configId`: the identifier is
    /// normalized (trimmed, lower-cased, a phone number without spaces, dashes and brackets) and
    /// hashed, so names never reveal it.
    init(appIdentifier: String, configId: String, identifier: String) {
        var normalized = identifier.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if normalized.hasPrefix("+") {
            normalized.removeAll { " -().".contains($0) }
        }
        let digest = SHA256.hash(data: Data(normalized.utf8)).map { String(format: "%02x", $0) }.joined()
        let user = String(digest.prefix(32))
        recordKey = "keyway.device.\(appIdentifier).\(configId).\(user)"
        keyName = SoftwareDeviceKeyStore.trustKeyName(appIdentifier: appIdentifier, configID: configId, userKey: user)
    }
}
