/// An application's PowerAuth credentials and settings.
struct PowerAuthApplicationRecord: Sendable, Equatable {
    var applicationId: String
    /// `APPLICATION_KEY`: 16 random bytes, standard Base64.
    var applicationKey: String
    /// `APPLICATION_SECRET`, sealed.
    var sealedApplicationSecret: String
    /// `KEY_SERVER_MASTER_PUBLIC`: the uncompressed X9.62 point, standard Base64.
    var masterPublicKey: String
    /// `KEY_SERVER_MASTER_PRIVATE`'s raw scalar, sealed.
    var sealedMasterPrivateKey: String
    var maxFailedAttempts: Int
    var recoveryEnabled: Bool
    var createdAt: Int64
}

/// The states of an activation, as the admin API and the status blob name them.
enum PowerAuthActivationStatus: String, Sendable, Codable, CaseIterable {
    case created = "CREATED"
    case pendingCommit = "PENDING_COMMIT"
    case active = "ACTIVE"
    case blocked = "BLOCKED"
    case removed = "REMOVED"
}

/// How an activation becomes active after the key exchange.
enum PowerAuthCommitMode: String, Sendable, Codable {
    /// At the key exchange.
    case automatic
    /// By an administrator's commit.
    case confirm
}

/// One device's activation.
struct PowerAuthActivationRecord: Sendable, Equatable {
    var id: String
    var applicationId: String
    var userId: String
    var status: PowerAuthActivationStatus
    /// The keyed hash of the activation code, until the code is used.
    var codeLookup: String?
    var codeExpiresAt: Int64?
    /// The keyed hash of the activation OTP, when one was set.
    var otpHash: String?
    var otpAttempts: Int
    var commitMode: PowerAuthCommitMode
    /// `KEY_DEVICE_PUBLIC` as sent (Base64).
    var devicePublicKey: String?
    /// `KEY_SERVER_PUBLIC`, uncompressed, Base64.
    var serverPublicKey: String?
    /// `KEY_SERVER_PRIVATE`'s raw scalar, sealed.
    var sealedServerPrivateKey: String?
    /// `CTR_DATA` the next signature should use, Base64.
    var counterData: String?
    /// How many steps the counter has moved (its low byte is the status blob's `CTR_BYTE`).
    var counter: Int64
    var failedAttempts: Int
    var maxFailedAttempts: Int
    var name: String?
    var platform: String?
    var deviceInfo: String?
    var extras: String?
    /// The v3 public key fingerprint, once the device key is known.
    var fingerprint: String?
    var blockedReason: String?
    var createdAt: Int64
    var updatedAt: Int64
    var lastUsedAt: Int64?
    var removedAt: Int64?
}

/// The states of a recovery code.
enum PowerAuthRecoveryCodeStatus: String, Sendable, Codable {
    /// A postcard's code, not yet confirmed by a device of its user.
    case created = "CREATED"
    case active = "ACTIVE"
    /// Too many wrong PUKs.
    case blocked = "BLOCKED"
    /// Revoked by an administrator, or its last PUK used.
    case revoked = "REVOKED"
}

/// A recovery code: handed out with an activation (one PUK), or printed on a postcard (several).
struct PowerAuthRecoveryCodeRecord: Sendable, Equatable {
    var id: String
    var applicationId: String
    var userId: String
    /// The activation it was handed out with; `nil` for a postcard.
    var activationId: String?
    var codeLookup: String
    var status: PowerAuthRecoveryCodeStatus
    var failedAttempts: Int
    var maxFailedAttempts: Int
    /// The activation the code recovered last (removed at its next use).
    var recoveredActivationId: String?
    var createdAt: Int64
    var updatedAt: Int64
}

/// The states of a recovery PUK.
enum PowerAuthRecoveryPukStatus: String, Sendable {
    case valid = "VALID"
    case used = "USED"
    /// Its code was revoked before it was used.
    case invalid = "INVALID"
}

/// One PUK of a recovery code, as its keyed hash.
struct PowerAuthRecoveryPukRecord: Sendable, Equatable {
    var recoveryCodeId: String
    /// 1-based; PUKs are used in this order.
    var index: Int
    var pukHash: String
    var status: PowerAuthRecoveryPukStatus
}

/// A MAC token of an activation (`X-PowerAuth-Token`).
struct PowerAuthTokenRecord: Sendable, Equatable {
    /// A UUID v4.
    var id: String
    var activationId: String
    /// The 16-byte secret, sealed.
    var sealedSecret: String
    /// The factors of the signature that created it (`possession_knowledge`, …).
    var factors: String
    var createdAt: Int64
    var lastUsedAt: Int64?
}

/// A temporary ECIES key pair (protocol 3.3).
struct PowerAuthTemporaryKeyRecord: Sendable, Equatable {
    var id: String
    var applicationId: String
    /// Activation scope when set, application scope otherwise.
    var activationId: String?
    /// The public key, uncompressed, Base64.
    var publicKey: String
    /// The private key's raw scalar, sealed.
    var sealedPrivateKey: String
    var createdAt: Int64
    var expiresAt: Int64
}
