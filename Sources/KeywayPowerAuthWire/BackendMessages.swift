/// `POST /v1/powerauth/ecies/keys`: a backend asks the Keyway server for the key of one envelope
/// an app sealed to its temporary key (the backend kit writes it, the server reads it).
public struct EnvelopeKeyRequest: Codable, Sendable, Equatable {
    /// The app's application key (`X-PowerAuth-Encryption`'s `application_key`).
    public var applicationKey: String
    /// The activation, for an envelope sealed in the activation scope.
    public var activationId: String?
    /// `application` or `activation`.
    public var scope: String
    /// The temporary key the envelope was sealed to.
    public var temporaryKeyId: String
    /// The envelope's ephemeral public key (Base64).
    public var ephemeralPublicKey: String
    /// The envelope's nonce (Base64).
    public var nonce: String
    /// The envelope's timestamp, Unix milliseconds.
    public var timestamp: UInt64

    public init(
        applicationKey: String, activationId: String?, scope: String, temporaryKeyId: String, ephemeralPublicKey: String,
        nonce: String, timestamp: UInt64
    ) {
        self.applicationKey = applicationKey
        self.activationId = activationId
        self.scope = scope
        self.temporaryKeyId = temporaryKeyId
        self.ephemeralPublicKey = ephemeralPublicKey
        self.nonce = nonce
        self.timestamp = timestamp
    }
}

/// The answer of `POST /v1/powerauth/ecies/keys`: the key of that one envelope and what the
/// backend needs around it.
public struct EnvelopeKeyAnswer: Codable, Sendable, Equatable {
    /// `KEY_ENC ‖ KEY_MAC ‖ KEY_IV`, 48 bytes, Base64.
    public var envelopeKey: String
    /// The base of `SHARED_INFO_2` (Base64).
    public var sharedInfo2Base: String
    /// The associated data of 3.2 and later (Base64).
    public var associatedData: String
    /// The protocol version (`3.3`).
    public var version: String
    /// The activation, in the activation scope.
    public var activationId: String?
    /// The activation's user.
    public var userId: String?
    /// The Keyway application's configId.
    public var applicationId: String?

    public init(
        envelopeKey: String, sharedInfo2Base: String, associatedData: String, version: String, activationId: String?,
        userId: String?, applicationId: String?
    ) {
        self.envelopeKey = envelopeKey
        self.sharedInfo2Base = sharedInfo2Base
        self.associatedData = associatedData
        self.version = version
        self.activationId = activationId
        self.userId = userId
        self.applicationId = applicationId
    }
}
