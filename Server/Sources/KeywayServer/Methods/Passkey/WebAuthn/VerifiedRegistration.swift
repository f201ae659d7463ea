import Foundation

/// How far a registration's attestation statement was verified, recorded with the passkey.
enum AttestationTrust: String, Sendable, Codable {
    /// Format `none` (or the client stripped the attestation when none was asked for).
    case none
    /// `packed` without `x5c`: signed by the credential key itself.
    case selfAttestation = "self"
    /// `packed` with `x5c`: signature valid, the leaf meets §8.2.1, and the chain is valid to one of the configured roots.
    case certified
    /// `packed` with `x5c`: signature and leaf valid, but no configured root anchors the chain.
    case uncertified
    /// Another format (`tpm`, `android-key`, `android-safetynet`, `fido-u2f`, `apple`, …):
    /// accepted, its statement not verified.
    case unverified
}

/// A registration that passed every check: what to store for the new passkey.
struct VerifiedRegistration: Sendable, Equatable {
    /// The credential ID.
    var credentialID: Data
    /// The credential public key: its raw COSE_Key bytes.
    var publicKey: Data
    /// The key's algorithm.
    var algorithm: COSEAlgorithm
    /// The signature counter at registration.
    var signCount: UInt32
    /// The authenticator model's AAGUID (16 bytes; zeros when the authenticator hides it).
    var aaguid: Data
    /// Whether the authenticator verified the user (UV).
    var userVerified: Bool
    /// Whether the credential may be synced (BE).
    var backupEligible: Bool
    /// Whether the credential is backed up now (BS).
    var backedUp: Bool
    /// The attestation statement's format (`none`, `packed`, …).
    var attestationFormat: String
    /// How far the attestation was verified.
    var attestationTrust: AttestationTrust
    /// The transports the client reported.
    var transports: [String]
}
