import Foundation
import KeywayProtocol

/// `GET/PATCH /admin/applications/{configId}/powerauth`: what an app and the CLI configure the
/// PowerAuth client with.
package struct PowerAuthApplicationSettings: Codable, Sendable, Equatable {
    var configId: String
    var applicationKey: String
    var applicationSecret: String
    /// Standard Base64 of the uncompressed X9.62 point (65 bytes).
    var masterServerPublicKey: String
    var maxFailedAttempts: Int
    var recoveryEnabled: Bool
}

/// `PATCH /admin/applications/{configId}/powerauth`.
struct PowerAuthSettingsUpdate: Codable, Sendable {
    var maxFailedAttempts: Int?
    var recoveryEnabled: Bool?
}

/// `POST /admin/users/{userId}/activations` and `POST /v1/user/activations`.
struct CreateActivationCodeRequest: Codable, Sendable {
    var configId: String?
    /// Seconds, 60 to 604 800; 600 by default.
    var expiresIn: Int?
    var otp: String?
    /// `automatic` (default) or `confirm`.
    var commit: String?
    var name: String?
}

/// A new activation code.
package struct CreatedActivationCode: Codable, Sendable, Equatable {
    var activationId: String
    var activationCode: String
    /// Base64 of the DER ECDSA-SHA256 signature of the code by the master private key.
    var activationSignature: String
    /// `CODE#SIGNATURE`.
    var qrPayload: String
    var status: String
    /// RFC 3339.
    var expiresAt: String
}

/// One activation as the admin API and the user's list show it.
package struct PowerAuthActivationSummary: Codable, Sendable, Equatable {
    var activationId: String
    var configId: String
    var status: String
    var name: String?
    var platform: String?
    var deviceInfo: String?
    var fingerprint: String?
    var failedAttempts: Int
    var maxFailedAttempts: Int
    var createdAt: String
    var lastUsedAt: String?
    var blockedReason: String?
}

/// A list of activations.
package struct PowerAuthActivationList: Codable, Sendable, Equatable {
    var activations: [PowerAuthActivationSummary]
}

/// `POST /admin/activations/{activationId}/commit`.
struct CommitActivationRequest: Codable, Sendable {
    var otp: String?
}

/// `POST /admin/activations/{activationId}/block`.
struct BlockActivationRequest: Codable, Sendable {
    var reason: String?
}

extension ProblemCode {
    /// No activation has this ID.
    public static let activationNotFound = ProblemCode(rawValue: "activation_not_found")
    /// The activation is not in a state that allows the operation.
    public static let activationStateConflict = ProblemCode(rawValue: "activation_state_conflict")
    /// The activation OTP given at the commit is wrong.
    public static let activationOtpInvalid = ProblemCode(rawValue: "activation_otp_invalid")
    /// The activation has no token of this ID.
    public static let tokenNotFound = ProblemCode(rawValue: "token_not_found")
    /// No recovery code has this ID.
    public static let recoveryCodeNotFound = ProblemCode(rawValue: "recovery_code_not_found")
}

/// Why a PowerAuth administration call failed.
enum PowerAuthAdminError: Error, Sendable, Equatable, CustomStringConvertible {
    case applicationNotFound(configId: String)
    case userNotFound(userId: String)
    case activationNotFound(activationId: String)
    case invalidInput(field: String, message: String)
    case stateConflict(String)
    /// A wrong OTP at the commit; the code dies when `remaining` is 0.
    case otpInvalid(remaining: Int)
    case tokenNotFound(tokenId: String)
    case recoveryCodeNotFound(recoveryCodeId: String)

    var description: String {
        switch self {
        case .applicationNotFound(let configId): "No application has the config ID \(configId)."
        case .userNotFound(let userId): "No user has the ID \(userId)."
        case .activationNotFound(let activationId): "No activation has the ID \(activationId)."
        case .invalidInput(let field, let message): "\(field): \(message)"
        case .stateConflict(let message): message
        case .tokenNotFound(let tokenId): "The activation has no token with the ID \(tokenId)."
        case .recoveryCodeNotFound(let id): "No recovery code has the ID \(id)."
        case .otpInvalid(let remaining):
            remaining > 0 ? "The activation OTP is not right; \(remaining) attempts remain."
                : "The activation OTP is not right; the activation was removed."
        }
    }

    /// The problem document the HTTP routes answer with.
    var problem: FlowProblem {
        switch self {
        case .applicationNotFound(let configId): AdminProblem.applicationNotFound(configId)
        case .userNotFound(let userId): AdminProblem.userNotFound(userId)
        case .activationNotFound:
            FlowProblem(.activationNotFound, status: 404, title: "Activation not found", detail: description, action: .abort)
        case .invalidInput(let field, let message):
            FlowProblem.invalidRequest([InvalidField(name: field, reason: message)], detail: message)
        case .stateConflict:
            FlowProblem(.activationStateConflict, status: 409, title: "Activation state conflict", detail: description, action: .abort)
        case .tokenNotFound:
            FlowProblem(.tokenNotFound, status: 404, title: "Token not found", detail: description, action: .abort)
        case .recoveryCodeNotFound:
            FlowProblem(.recoveryCodeNotFound, status: 404, title: "Recovery code not found", detail: description, action: .abort)
        case .otpInvalid:
            FlowProblem(.activationOtpInvalid, status: 400, title: "Wrong activation OTP", detail: description, action: .retryInput)
        }
    }
}

enum RFC3339 {
    static func string(_ millis: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(epochMilliseconds: millis))
    }
}
