import Foundation

/// A stored passkey an assertion is checked against.
struct StoredPasskeyCredential: Sendable, Equatable {
    /// The credential ID.
    var credentialID: Data
    /// The credential public key: its raw COSE_Key bytes.
    var publicKey: Data
    /// The last signature counter accepted.
    var signCount: UInt32
    /// Whether the credential was backup eligible (BE) at registration; the flag never changes.
    var backupEligible: Bool
    /// The user handle the passkey was registered for.
    var userHandle: Data
}

/// An assertion that passed every check: what to write back to the stored passkey.
struct VerifiedAssertion: Sendable, Equatable {
    /// The new signature counter.
    var signCount: UInt32
    /// Whether the authenticator verified the user (UV).
    var userVerified: Bool
    /// Whether the credential is backed up now (BS).
    var backedUp: Bool
}
