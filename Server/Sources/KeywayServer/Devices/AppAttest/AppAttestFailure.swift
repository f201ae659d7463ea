/// Why an App Attest attestation or assertion was refused. Each case has a stable code (sent to
/// clients as the problem's `reason`) and a sentence for operators and developers.
public enum AppAttestFailure: Error, Equatable, Sendable {
    /// The object is not the CBOR structure Apple defines.
    case malformed(String)
    /// The attestation statement is not `apple-appattest`.
    case unsupportedFormat(String)
    /// The certificates do not chain to a trusted App Attest root.
    case untrustedCertificate
    /// The nonce in the credential certificate is not `SHA256(authData ‖ clientDataHash)`: the
    /// attestation was made for another challenge.
    case nonceMismatch
    /// The key ID is not the SHA-256 hash of the attested public key, or the credential ID differs.
    case keyIDMismatch
    /// The relying-party ID hash is not the SHA-256 hash of an accepted App ID.
    case appIDMismatch
    /// The AAGUID names the other environment (development or production) than the one accepted.
    case wrongEnvironment
    /// An attestation's counter is not zero.
    case counterNotZero
    /// An assertion's counter is not greater than the last one accepted for the key.
    case counterNotIncreasing
    /// An assertion's signature does not verify with the attested key.
    case badSignature
    /// No attested key has this ID for the application.
    case unknownKey

    /// The stable code.
    public var code: String {
        switch self {
        case .malformed: "malformed"
        case .unsupportedFormat: "unsupported_format"
        case .untrustedCertificate: "untrusted_certificate"
        case .nonceMismatch: "nonce_mismatch"
        case .keyIDMismatch: "key_id_mismatch"
        case .appIDMismatch: "app_id_mismatch"
        case .wrongEnvironment: "wrong_environment"
        case .counterNotZero: "counter_not_zero"
        case .counterNotIncreasing: "counter_not_increasing"
        case .badSignature: "bad_signature"
        case .unknownKey: "unknown_key"
        }
    }

    /// A sentence saying what is wrong.
    public var message: String {
        switch self {
        case .malformed(let reason): "The App Attest object is malformed: \(reason)."
        case .unsupportedFormat(let format): "The attestation format \"\(format)\" is not apple-appattest."
        case .untrustedCertificate: "The attestation's certificates do not chain to a trusted App Attest root."
        case .nonceMismatch: "The attestation was not made for this challenge."
        case .keyIDMismatch: "The key ID does not match the attested key."
        case .appIDMismatch: "The attestation is for an App ID this application does not accept."
        case .wrongEnvironment: "The attestation comes from the App Attest environment this application does not accept."
        case .counterNotZero: "A new attestation must have a counter of zero."
        case .counterNotIncreasing: "The assertion's counter did not increase: it was used before."
        case .badSignature: "The assertion's signature does not verify with the attested key."
        case .unknownKey: "No attested key of this application has this ID."
        }
    }
}
