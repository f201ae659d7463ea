import Crypto
import Foundation
import X509

/// Whether the relying party requires the authenticator to verify the user (WebAuthn §5.8.6).
enum UserVerificationRequirement: String, Sendable, Codable, CaseIterable {
    /// UV must be set, or the ceremony is refused.
    case required
    /// UV is asked for and not required.
    case preferred
    /// UV is not asked for.
    case discouraged
}

/// What attestation the relying party asks for (WebAuthn §5.4.7).
enum AttestationConveyance: String, Sendable, Codable, CaseIterable {
    /// No attestation: the client may replace it with `none`.
    case none
    /// The authenticator's own attestation statement.
    case direct
}

/// What the relying party accepts: the settings its policy gives.
struct WebAuthnRelyingParty: Sendable, Equatable {
    /// The RP ID (a registrable domain, e.g. `example.com`) passkeys are scoped to.
    var id: String
    /// The exact origins accepted: `https://login.example.com`, `ios:bundle-id:com.example.app`,
    /// `android:apk-key-hash:…`.
    var origins: [String]
    /// Whether user verification is required.
    var userVerification: UserVerificationRequirement
    /// `false`: a credential with the BE flag (one that may be synced) is refused at registration.
    var allowSyncedPasskeys: Bool
    /// The attestation asked for, for the creation options. The verifier checks whatever
    /// statement comes the same way either way (a client may strip it to `none` when none is asked).
    var attestation: AttestationConveyance
    /// Trust anchors for packed `x5c` chains; none configured: chains are never ``AttestationTrust/certified``.
    var attestationRoots: [Certificate] = []

    /// SHA-256 of an RP ID, as authenticator data carries it.
    ///
    /// - Parameter id: The RP ID.
    /// - Returns: The 32-byte hash of its UTF-8 bytes.
    static func rpIDHash(_ id: String) -> Data {
        Data(SHA256.hash(data: Data(id.utf8)))
    }
}
