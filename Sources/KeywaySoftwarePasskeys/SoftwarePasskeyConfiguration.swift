import Foundation
import Keyway

extension SoftwarePasskeyAuthenticator {
    /// How a ``SoftwarePasskeyAuthenticator`` behaves: the origin its client data names, the
    /// flags it sets, its key type and its attestation.
    public struct Configuration: Sendable, Equatable {
        /// The origin the client data names (`https://example.com`); `nil`: `https://` and the
        /// options' relying-party ID. Not checked against the relying-party ID (a browser would):
        /// a test can send a foreign origin on purpose.
        public var origin: String?
        /// Whether it verifies the user (the UV flag). It never refuses for want of verification:
        /// the relying party decides.
        public var userVerifies: Bool
        /// Whether its new passkeys are synced passkeys: backup eligible and backed up (the BE and
        /// BS flags) with a signature counter that stays 0. Otherwise the counter goes up by one
        /// with every signature.
        public var synced: Bool
        /// The attestation statement of new passkeys.
        public var attestation: Attestation
        /// The key type of new passkeys; the options must accept it.
        public var algorithm: Algorithm
        /// The AAGUID (16 bytes) its attested credential data names; zeros by default, as
        /// authenticators without attestation send.
        public var aaguid: [UInt8]

        /// A configuration; by default it verifies the user, makes device-bound ES256 passkeys
        /// and attests with `none`.
        ///
        /// - Parameters:
        ///   - origin: The origin of the client data; `nil` for `https://` and the relying-party ID.
        ///   - userVerifies: Whether it sets the UV flag.
        ///   - synced: Whether its passkeys are synced (BE and BS set, the counter at 0).
        ///   - attestation: `none` or `packed` self-attestation.
        ///   - algorithm: ES256 (P-256) or EdDSA (Ed25519).
        ///   - aaguid: The AAGUID, 16 bytes (another length is replaced by zeros).
        public init(
            origin: String? = nil, userVerifies: Bool = true, synced: Bool = false, attestation: Attestation = .none,
            algorithm: Algorithm = .es256, aaguid: [UInt8] = [UInt8](repeating: 0, count: 16)
        ) {
            self.origin = origin
            self.userVerifies = userVerifies
            self.synced = synced
            self.attestation = attestation
            self.algorithm = algorithm
            self.aaguid = aaguid.count == 16 ? aaguid : [UInt8](repeating: 0, count: 16)
        }
    }

    /// A key type, by its COSE algorithm identifier.
    public enum Algorithm: Int, Sendable, Equatable, Codable {
        /// ECDSA on P-256 with SHA-256 (COSE -7); signatures in DER, as WebAuthn sends them.
        case es256 = -7
        /// Ed25519 (COSE -8); raw 64-byte signatures.
        case eddsa = -8
    }

    /// The attestation statement of a new passkey.
    public enum Attestation: String, Sendable, Equatable {
        /// `fmt` `none`, an empty statement.
        case none
        /// `fmt` `packed` self-attestation: `{"alg": …, "sig": …}`, signed with the new key itself
        /// over the authenticator data and the client data's hash.
        case packed
    }

    /// Which passkey answers when several may.
    public enum Selection: Sendable, Equatable {
        /// The one made last (the default).
        case mostRecent
        /// The one made for this user name (the options' `user.name`); none else.
        case userName(String)
        /// The one with this credential ID (base64url); none else.
        case credentialID(String)
    }
}
