import Foundation

/// The published error body.
struct PowerAuthErrorBody: Codable, Sendable, Equatable {
    struct Detail: Codable, Sendable, Equatable {
        var code: String
        var message: String
        /// The index of the PUK a recovery expects next, after a wrong one.
        var currentRecoveryPukIndex: Int?
    }

    var status = "ERROR"
    var responseObject: Detail
}

/// `{"status":"OK"}`, with a response object when the endpoint has one.
struct PowerAuthOKBody<Object: Codable & Sendable>: Codable, Sendable {
    var status = "OK"
    var responseObject: Object?
}

/// `POST /pa/v3/status`'s response object, as the RESTful integration's `ServerStatusResponse`
/// has it: the server's time in milliseconds since 1970, which the mobile SDKs synchronise their
/// clock with, and the serving application.
struct PowerAuthServerStatus: Codable, Sendable {
    struct Application: Codable, Sendable {
        var name: String
        var version: String
    }

    var serverTime: Int64
    var application: Application
}

/// The empty answer of endpoints without a response object.
struct PowerAuthEmptyObject: Codable, Sendable, Equatable {}

/// `{"requestObject": …}`, the envelope of unencrypted requests.
struct PowerAuthRequestEnvelope<Object: Codable & Sendable>: Codable, Sendable {
    var requestObject: Object
}

/// An encrypted request body (3.3): the temporary key, the ephemeral key, ciphertext, MAC, nonce
/// and timestamp, binary values in standard Base64.
struct EciesRequestBody: Codable, Sendable, Equatable {
    var temporaryKeyId: String?
    var ephemeralPublicKey: String?
    var encryptedData: String?
    var mac: String?
    var nonce: String?
    var timestamp: Int64?
}

/// An encrypted response body.
struct EciesResponseBody: Codable, Sendable, Equatable {
    var encryptedData: String
    var mac: String
    var nonce: String
    var timestamp: Int64
}

/// `POST /pa/v3/keystore/create`'s request object.
struct KeystoreCreateRequest: Codable, Sendable {
    var jwt: String?
}

/// `POST /pa/v3/keystore/create`'s answer (the JWT in `responseObject`, and in `requestObject`
/// as the published example writes it).
struct KeystoreCreateResponse: Codable, Sendable {
    struct Object: Codable, Sendable {
        var jwt: String
    }

    var status = "OK"
    var responseObject: Object
    var requestObject: Object
}

/// The first layer of `POST /pa/v3/activation/create`, once decrypted.
///
/// Its kind is `type` in every shipping implementation (the iOS SDK's `PA2CreateActivationRequest`,
/// the Android SDK's and the RESTful integration's `ActivationLayer1Request`) and `activationType`
/// in the published protocol document; both are read, `type` first.
struct ActivationLayer1Request: Decodable, Sendable {
    var type: String?
    var activationType: String?
    var identityAttributes: [String: String]?
    var activationData: EciesRequestBody?

    /// `CODE`, `CUSTOM` or `RECOVERY`, as sent.
    var kind: String? { type ?? activationType }
}

/// The second layer, once decrypted.
struct ActivationLayer2Request: Decodable, Sendable {
    var devicePublicKey: String?
    var activationName: String?
    var activationOtp: String?
    var platform: String?
    var deviceInfo: String?
    var extras: String?
}

/// The second layer of the answer, before encryption.
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

/// The first layer of the answer, before encryption.
struct ActivationLayer1Response: Codable, Sendable {
    var customAttributes: [String: String]
    var activationData: EciesResponseBody
}

/// `POST /pa/v3/activation/status`'s request object.
struct ActivationStatusRequest: Codable, Sendable {
    var activationId: String?
    var challenge: String?
}

/// `POST /pa/v3/activation/status`'s response object.
struct ActivationStatusResponse: Codable, Sendable {
    var activationId: String
    var encryptedStatusBlob: String
    var nonce: String
    var customObject: [String: String]
}

/// The vault unlock's request, once decrypted.
struct VaultUnlockRequest: Decodable, Sendable {
    var reason: String?
}

/// The vault unlock's answer, before encryption.
struct VaultUnlockResponse: Codable, Sendable {
    var activationId: String
    var encryptedVaultEncryptionKey: String
}

/// `POST /pa/v3/token/create`'s answer, before encryption.
struct TokenCreateResponse: Codable, Sendable {
    var tokenId: String
    var tokenSecret: String
}

/// `POST /pa/v3/token/remove`'s request and response object.
struct TokenRemoveObject: Codable, Sendable {
    var tokenId: String?
}

/// `POST /pa/v3/recovery/confirm`'s request, once decrypted.
struct RecoveryConfirmRequest: Decodable, Sendable {
    var recoveryCode: String?
}

/// `POST /pa/v3/recovery/confirm`'s answer, before encryption.
struct RecoveryConfirmResponse: Codable, Sendable {
    var alreadyConfirmed: Bool
}
