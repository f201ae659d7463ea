/// A device a user trusts in one application: its public key proves it.
struct TrustedDeviceRecord: Sendable, Equatable, Codable {
    var id: String
    var userId: String
    var applicationId: String
    /// The public key as JWK JSON.
    var publicKey: String
    /// The key's RFC 7638 thumbprint.
    var keyThumbprint: String
    var name: String
    var userAgent: String?
    var hardwareBacked: Bool
    var createdAt: Int64
    var lastUsedAt: Int64?
    var trustedUntil: Int64
    var revokedAt: Int64?

    /// Whether the device is trusted at `now`.
    func isTrusted(at now: Int64) -> Bool { revokedAt == nil && now < trustedUntil }

    /// RFC 8176: `hwk` for a hardware-backed key, `swk` for a software key.
    var amr: String { hardwareBacked ? "hwk" : "swk" }
}

/// A sign-in waiting for a trusted device's approval.
struct ApprovalRecord: Sendable, Equatable {
    enum State: String, Sendable {
        case pending, approved, denied
        /// The waiting flow was cancelled.
        case withdrawn
    }

    var id: String
    var flowId: String
    var applicationId: String
    var userId: String
    var matchingNumber: String
    var qrSecretHash: String
    var state: State
    var location: String?
    var userAgent: String?
    var createdAt: Int64
    var expiresAt: Int64
    var decidedAt: Int64?
    var decidedByDeviceId: String?
}
