import Foundation

/// The second layer of `/pa/v3/activation/create`'s request (`sh1="/pa/activation"`).
struct ActivationLayer2Request: Codable, Sendable {
    var devicePublicKey: String
    var activationName: String?
    var activationOtp: String?
    var platform: String
    var deviceInfo: String?
    var extras: String?
}

/// The first layer's request (`sh1="/pa/generic/application"`), which carries the second. Its
/// kind is sent as `type`, as every shipping PowerAuth implementation sends and reads it (the
/// published protocol document names it `activationType`).
struct ActivationLayer1Request: Codable, Sendable {
    var type: String
    var identityAttributes: [String: String]
    var activationData: EciesEnvelope
}

/// The first layer's answer: the second layer's envelope (custom attributes are not read).
struct ActivationLayer1Response: Codable, Sendable {
    var activationData: EciesEnvelope
}

/// The second layer's answer.
struct ActivationLayer2Response: Codable, Sendable {
    struct Recovery: Codable, Sendable {
        var recoveryCode: String
        var puk: String
    }
    var activationId: String
    var serverPublicKey: String
    var ctrData: String
    var activationRecovery: Recovery?
}

/// `/pa/v3/activation/status`'s request object.
struct StatusRequest: Codable, Sendable {
    var activationId: String
    var challenge: String
}

/// `/pa/v3/activation/status`'s response object.
struct StatusResponse: Codable, Sendable {
    var activationId: String
    var encryptedStatusBlob: String
    var nonce: String
}

/// `/pa/v3/vault/unlock`'s request before encryption.
struct VaultUnlockRequest: Codable, Sendable {
    var reason: String
}

/// `/pa/v3/vault/unlock`'s answer after decryption.
struct VaultUnlockResponse: Codable, Sendable {
    var activationId: String?
    var encryptedVaultEncryptionKey: String
}
