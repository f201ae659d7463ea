/// A user's passkey (a WebAuthn credential): its credential ID unique in the project, its COSE
/// public key, and what its last signature reported.
struct PasskeyCredentialRecord: Sendable, Equatable, Codable {
    /// Keyway's ID of the passkey (`pky_…`), which account management shows.
    var id: String
    var userId: String
    var projectId: String
    /// The credential ID, base64url.
    var credentialId: String
    /// The user handle the passkey was made with, base64url (the user ID's UTF-8 bytes).
    var userHandle: String
    /// The COSE_Key, base64url.
    var publicKey: String
    /// The COSE algorithm (-7, -8, -257).
    var algorithm: Int
    var signCount: Int64
    /// Whether the credential may be synced (BE), fixed at registration.
    var backupEligible: Bool
    /// Whether it was synced at its last use (BS).
    var backedUp: Bool
    /// Whether the registration verified the user (UV).
    var userVerified: Bool
    var transports: [String]
    /// The authenticator model's AAGUID, lowercase hex.
    var aaguid: String
    /// The attestation statement's format (`none`, `packed`, …).
    var attestationFormat: String
    /// How the attestation was judged (``AttestationTrust``).
    var attestationTrust: String
    var name: String
    var createdAt: Int64
    var lastUsedAt: Int64?
    /// When a signature's counter went backwards (refused, and the passkey flagged).
    var counterRegressedAt: Int64?
}
