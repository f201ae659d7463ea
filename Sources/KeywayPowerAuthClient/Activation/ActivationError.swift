import Foundation

/// Why an activation call failed: a stable ``code`` for programs and a sentence for people.
public enum ActivationError: Error, Sendable, Equatable, KeywayRecoverableError, CustomStringConvertible {
    /// The configuration is unusable (`invalid_configuration`).
    case invalidConfiguration(String)
    /// A typed or scanned activation code is malformed; the sentence says where
    /// (`invalid_activation_code`).
    case invalidActivationCode(PowerAuthError)
    /// A scanned code's signature is not the master server key's (`activation_signature_invalid`).
    case activationSignatureInvalid
    /// A recovery code or PUK is malformed (`invalid_recovery_code`).
    case invalidRecoveryCode(PowerAuthError)
    /// This device already holds an activation for the application (`activation_exists`).
    case activationExists
    /// This device holds no activation for the application (`no_activation`).
    case noActivation
    /// The activation waits for its local commit (password) (`activation_not_committed`).
    case notCommitted
    /// The activation was already committed (`activation_already_committed`).
    case alreadyCommitted
    /// The factors asked for cannot be used: a biometry factor without biometry set up, a
    /// knowledge factor without a password, an operation that needs two factors
    /// (`invalid_factors`).
    case invalidFactors(String)
    /// Biometry is not available or the user did not pass it (`biometry_failed`).
    case biometry(BiometryError)
    /// No Keyway sign-in to activate with (`sign_in_required`).
    case signInRequired(String)
    /// Offline signature data are malformed (`invalid_offline_data`).
    case invalidOfflineData(String)
    /// Offline signature data are not signed by the server key their flag names
    /// (`offline_data_signature_invalid`).
    case offlineDataSignatureInvalid
    /// The server refused the signature (HTTP 401): a wrong password counts as a failed attempt
    /// (`authentication_failed`).
    case authenticationFailed(code: String, message: String)
    /// The server refused the request (`server_error`): its PowerAuth error code and message.
    case server(status: Int, code: String, message: String)
    /// The server could not be reached (`network_failure`).
    case networkFailure(String)
    /// The server's answer does not decrypt, verify or decode (`invalid_response`).
    case invalidResponse(String)
    /// The secure storage failed (`storage_failure`).
    case storage(SecureStorageError)
    /// No token of this name is stored on the device (`token_not_found`).
    case tokenNotFound(String)
    /// Exported tokens cannot be imported: sealed under another key, changed, or of another
    /// application or activation (`invalid_token_export`).
    case invalidTokenExport(String)
    /// The device keeps no recovery code for this activation (`recovery_not_available`).
    case recoveryNotAvailable

    /// The stable code of the error.
    public var code: String {
        switch self {
        case .invalidConfiguration: "invalid_configuration"
        case .invalidActivationCode: "invalid_activation_code"
        case .activationSignatureInvalid: "activation_signature_invalid"
        case .invalidRecoveryCode: "invalid_recovery_code"
        case .activationExists: "activation_exists"
        case .noActivation: "no_activation"
        case .notCommitted: "activation_not_committed"
        case .alreadyCommitted: "activation_already_committed"
        case .invalidFactors: "invalid_factors"
        case .biometry: "biometry_failed"
        case .signInRequired: "sign_in_required"
        case .invalidOfflineData: "invalid_offline_data"
        case .offlineDataSignatureInvalid: "offline_data_signature_invalid"
        case .authenticationFailed: "authentication_failed"
        case .server: "server_error"
        case .networkFailure: "network_failure"
        case .invalidResponse: "invalid_response"
        case .storage: "storage_failure"
        case .tokenNotFound: "token_not_found"
        case .invalidTokenExport: "invalid_token_export"
        case .recoveryNotAvailable: "recovery_not_available"
        }
    }

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .invalidConfiguration(let why): "The PowerAuth configuration is invalid: \(why)"
        case .invalidActivationCode(let error): "The activation code is not valid: \(Self.sentence(error))."
        case .activationSignatureInvalid:
            "The scanned activation code is not signed by this application's server; scan the code the server shows."
        case .invalidRecoveryCode(let error): "The recovery code or PUK is not valid: \(Self.sentence(error))."
        case .activationExists: "This device is already activated for this application; remove the activation first."
        case .noActivation: "This device is not activated for this application."
        case .notCommitted: "The activation is waiting for its password; commit it first."
        case .alreadyCommitted: "The activation already has its password."
        case .invalidFactors(let why): why
        case .biometry(let error): error.description
        case .signInRequired(let why): why
        case .invalidOfflineData(let why): "The offline data are not valid: \(why)."
        case .offlineDataSignatureInvalid: "The offline data are not signed by the server; do not sign them."
        case .authenticationFailed(_, let message):
            "The server refused the signature (a wrong password counts as a failed attempt)\(message.isEmpty ? "" : ": \(message)")."
        case .server(let status, let code, let message):
            "The server refused the request (HTTP \(status), \(code))\(message.isEmpty ? "" : ": \(message)")."
        case .networkFailure(let why): "The server could not be reached: \(why)"
        case .invalidResponse(let why): "The server's answer is not valid: \(why)"
        case .storage(let error): error.description
        case .tokenNotFound(let name): "No token named \"\(name)\" is stored on this device; request it first."
        case .invalidTokenExport(let why): "The exported tokens cannot be imported: \(why)"
        case .recoveryNotAvailable:
            "This device keeps no recovery code for its activation (the application issues none, or it was activated before codes were kept)."
        }
    }

    /// The sentence of ``description``.
    public var errorDescription: String? { description }

    /// What to do about it.
    public var recovery: KeywayErrorRecovery {
        switch self {
        case .invalidActivationCode, .invalidRecoveryCode, .authenticationFailed, .networkFailure, .biometry,
             .invalidFactors, .storage:
            .retry
        case .tokenNotFound, .invalidTokenExport, .recoveryNotAvailable:
            .startOver
        case .activationExists, .noActivation, .notCommitted, .alreadyCommitted, .signInRequired,
             .activationSignatureInvalid, .invalidOfflineData, .offlineDataSignatureInvalid:
            .startOver
        case .server(let status, _, _): status >= 500 || status == 429 ? .retry : .startOver
        case .invalidConfiguration, .invalidResponse: .notRecoverable
        }
    }

    /// A suggestion for people.
    public var recoverySuggestion: String? {
        switch self {
        case .invalidActivationCode: "Check the code and type it again."
        case .authenticationFailed: "Check the password and try again."
        case .networkFailure: "Check the connection and try again."
        case .activationExists: "Remove this device's activation, then activate again."
        case .noActivation: "Activate this device first."
        case .notCommitted: "Choose the activation's password."
        default: nil
        }
    }

    /// A PowerAuth error as a clause, with the 1-based position of a wrong character.
    private static func sentence(_ error: PowerAuthError) -> String {
        switch error {
        case .invalidCharacter(let character, let position):
            "'\(character)' at position \(position) cannot be part of a code"
        case .checksumMismatch: "its checksum does not match, so a character was probably mistyped"
        case .invalidLength(_, _, let actual): "it has \(actual) characters or letters; a code has 20 letters in four groups of five"
        case .malformedPUK: "a PUK is ten digits"
        default: error.description
        }
    }
}
