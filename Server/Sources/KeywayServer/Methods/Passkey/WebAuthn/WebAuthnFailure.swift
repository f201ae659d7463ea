/// Why a passkey registration or assertion was refused. Each case has a stable snake_case
/// ``code`` (for problem documents and logs) and a human ``sentence``.
enum WebAuthnFailure: Error, Sendable, Equatable {
    /// The input is not what WebAuthn defines: CBOR, JSON, base64url, lengths or types.
    case malformed(String)
    /// The credential's COSE algorithm (its number) is not one Keyway verifies.
    case unsupportedAlgorithm(Int)
    /// The client data's `type` names the other ceremony.
    case wrongType
    /// The client data's challenge is not the one issued.
    case challengeMismatch
    /// The client data's origin (given) is not among the relying party's.
    case originNotAllowed(String)
    /// The client data says the ceremony ran in a cross-origin frame.
    case crossOrigin
    /// The authenticator data's RP ID hash is not SHA-256 of the relying party's ID.
    case rpIDMismatch
    /// The authenticator did not test for the user's presence (UP clear).
    case userNotPresent
    /// User verification was required and the authenticator did not verify the user (UV clear).
    case userNotVerified
    /// The credential may be synced (BE set) and the relying party accepts device-bound passkeys only.
    case syncedNotAllowed
    /// The backup flags are inconsistent: BS without BE, or BE not the one registered.
    case backupStateInvalid
    /// The attestation statement is wrong for its format (why given).
    case attestationInvalid(String)
    /// The credential IDs (`id`, `rawId`, the authenticator data's, the stored one) or the user handle differ.
    case credentialMismatch
    /// The assertion's signature does not verify with the credential's key.
    case signatureInvalid
    /// The signature counter did not increase past the stored one.
    case counterRegressed(stored: UInt32, received: UInt32)

    /// The stable code.
    var code: String {
        switch self {
        case .malformed: "passkey_malformed"
        case .unsupportedAlgorithm: "passkey_algorithm_unsupported"
        case .wrongType: "passkey_wrong_ceremony"
        case .challengeMismatch: "passkey_challenge_mismatch"
        case .originNotAllowed: "passkey_origin_not_allowed"
        case .crossOrigin: "passkey_cross_origin"
        case .rpIDMismatch: "passkey_rp_id_mismatch"
        case .userNotPresent: "passkey_user_not_present"
        case .userNotVerified: "passkey_user_not_verified"
        case .syncedNotAllowed: "passkey_synced_not_allowed"
        case .backupStateInvalid: "passkey_backup_state_invalid"
        case .attestationInvalid: "passkey_attestation_invalid"
        case .credentialMismatch: "passkey_credential_mismatch"
        case .signatureInvalid: "passkey_signature_invalid"
        case .counterRegressed: "passkey_counter_regressed"
        }
    }

    /// A sentence saying what is wrong.
    var sentence: String {
        switch self {
        case .malformed(let reason): "The passkey response is malformed: \(reason)."
        case .unsupportedAlgorithm(let algorithm): "The passkey's algorithm \(algorithm) is not supported."
        case .wrongType: "The passkey response is for another ceremony."
        case .challengeMismatch: "The passkey response was not made for this challenge."
        case .originNotAllowed(let origin): "The passkey response comes from an origin that is not allowed: \(origin)."
        case .crossOrigin: "The passkey response was made in a cross-origin frame."
        case .rpIDMismatch: "The passkey response was made for another relying party."
        case .userNotPresent: "The authenticator did not check that the user was present."
        case .userNotVerified: "The authenticator did not verify the user, and this application requires it."
        case .syncedNotAllowed: "The passkey can be synced, and this application accepts only device-bound passkeys."
        case .backupStateInvalid: "The passkey's backup flags are inconsistent."
        case .attestationInvalid(let reason): "The passkey's attestation is invalid: \(reason)."
        case .credentialMismatch: "The passkey response names another credential or user."
        case .signatureInvalid: "The passkey's signature does not verify."
        case .counterRegressed(let stored, let received):
            "The passkey's signature counter did not increase (stored \(stored), received \(received)): the authenticator may be cloned."
        }
    }
}
