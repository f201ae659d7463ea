import Foundation

/// The first layer of `POST /pa/v3/activation/create` (`sh1="/pa/generic/application"`), which
/// carries the second.
///
/// Its kind is `type` in every shipping implementation (the iOS SDK's `PA2CreateActivationRequest`,
/// the Android SDK's and the RESTful integration's `ActivationLayer1Request`) and `activationType`
/// in the published protocol document: a device sends `type`, the server reads both, `type` first.
public struct ActivationLayer1Request: Codable, Sendable {
    /// `CODE`, `CUSTOM` or `RECOVERY`, as shipping implementations send it.
    public var type: String?
    /// The same, as the protocol document names it.
    public var activationType: String?
    /// The activation code, custom credentials or recovery code and PUK.
    public var identityAttributes: [String: String]?
    /// The second layer, sealed (`sh1="/pa/activation"`).
    public var activationData: EciesEnvelope?

    /// `CODE`, `CUSTOM` or `RECOVERY`, as sent.
    public var kind: String? { type ?? activationType }

    public init(
        type: String? = nil, activationType: String? = nil, identityAttributes: [String: String]? = nil,
        activationData: EciesEnvelope? = nil
    ) {
        self.type = type
        self.activationType = activationType
        self.identityAttributes = identityAttributes
        self.activationData = activationData
    }
}

/// The second layer of the request, before encryption.
public struct ActivationLayer2Request: Codable, Sendable {
    /// The device's public key, Base64.
    public var devicePublicKey: String?
    /// The activation's name.
    public var activationName: String?
    /// An additional one-time password, when the activation asks for one.
    public var activationOtp: String?
    /// `ios`, `android`, … .
    public var platform: String?
    /// The device's model.
    public var deviceInfo: String?
    /// Free text the app adds.
    public var extras: String?

    public init(
        devicePublicKey: String? = nil, activationName: String? = nil, activationOtp: String? = nil, platform: String? = nil,
        deviceInfo: String? = nil, extras: String? = nil
    ) {
        self.devicePublicKey = devicePublicKey
        self.activationName = activationName
        self.activationOtp = activationOtp
        self.platform = platform
        self.deviceInfo = deviceInfo
        self.extras = extras
    }
}

/// The first layer of the answer: custom attributes, and the second layer, sealed.
public struct ActivationLayer1Response: Codable, Sendable {
    /// Attributes the server adds (Keyway sends none).
    public var customAttributes: [String: String]?
    /// The second layer, sealed.
    public var activationData: EciesEnvelope

    public init(customAttributes: [String: String]? = nil, activationData: EciesEnvelope) {
        self.customAttributes = customAttributes
        self.activationData = activationData
    }
}

/// The second layer of the answer, before encryption.
public struct ActivationLayer2Response: Codable, Sendable {
    /// A recovery code and its PUK, when the application issues them.
    public struct Recovery: Codable, Sendable {
        public var recoveryCode: String
        public var puk: String

        public init(recoveryCode: String, puk: String) {
            self.recoveryCode = recoveryCode
            self.puk = puk
        }
    }

    /// The activation's ID.
    public var activationId: String
    /// The server's public key, Base64.
    public var serverPublicKey: String
    /// The counter's initial hash data, Base64.
    public var ctrData: String
    /// The recovery code, when issued.
    public var activationRecovery: Recovery?

    public init(activationId: String, serverPublicKey: String, ctrData: String, activationRecovery: Recovery? = nil) {
        self.activationId = activationId
        self.serverPublicKey = serverPublicKey
        self.ctrData = ctrData
        self.activationRecovery = activationRecovery
    }
}

/// `POST /pa/v3/activation/status`'s request object.
public struct ActivationStatusRequest: Codable, Sendable {
    /// The activation's ID.
    public var activationId: String?
    /// A random challenge, Base64 (3.1 and later).
    public var challenge: String?

    public init(activationId: String? = nil, challenge: String? = nil) {
        self.activationId = activationId
        self.challenge = challenge
    }
}

/// `POST /pa/v3/activation/status`'s response object.
public struct ActivationStatusResponse: Codable, Sendable {
    /// The activation's ID.
    public var activationId: String
    /// The encrypted status blob, Base64.
    public var encryptedStatusBlob: String
    /// The nonce the blob's IV is derived from, Base64.
    public var nonce: String
    /// Attributes the server adds (Keyway sends none).
    public var customObject: [String: String]?

    public init(activationId: String, encryptedStatusBlob: String, nonce: String, customObject: [String: String]? = nil) {
        self.activationId = activationId
        self.encryptedStatusBlob = encryptedStatusBlob
        self.nonce = nonce
        self.customObject = customObject
    }
}
