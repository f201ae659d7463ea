import HTTPTypes

/// A refusal on the `/pa/v3` API, answered with the published error body
/// `{"status":"ERROR","responseObject":{"code":…,"message":…}}`: `400` for a malformed request or a
/// refusal of the business logic, `401` when a signature does not verify.
struct PowerAuthFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable code.
    let code: String
    /// A sentence for people.
    let message: String
    let status: HTTPResponse.Status
    /// The current PUK's index, in the refusal of a wrong PUK (`currentRecoveryPukIndex`).
    var currentRecoveryPukIndex: Int? = nil
    /// Seconds before a throttled client may try again (`Retry-After`).
    var retryAfterSeconds: Int? = nil

    var description: String { "\(code): \(message)" }

    /// The body is not what the endpoint reads: not JSON, a missing or oversized field, bad Base64,
    /// wrong lengths, an unknown protocol version, a malformed header.
    static func invalidRequest(_ message: String) -> PowerAuthFailure {
        PowerAuthFailure(code: "ERR_INVALID_REQUEST", message: message, status: .badRequest)
    }

    /// An activation could not be created, found or changed.
    static func activation(_ message: String) -> PowerAuthFailure {
        PowerAuthFailure(code: "ERR_ACTIVATION", message: message, status: .badRequest)
    }

    /// An ECIES envelope did not open: unknown or expired temporary key, a MAC that does not match.
    static func encryption(_ message: String) -> PowerAuthFailure {
        PowerAuthFailure(code: "ERR_ENCRYPTION", message: message, status: .badRequest)
    }

    /// A temporary key request was refused.
    static func temporaryKey(_ message: String) -> PowerAuthFailure {
        PowerAuthFailure(code: "ERR_TEMPORARY_KEY", message: message, status: .badRequest)
    }

    /// A recovery code or PUK was refused.
    static func recovery(_ message: String) -> PowerAuthFailure {
        PowerAuthFailure(code: "ERR_RECOVERY", message: message, status: .badRequest)
    }

    /// A token could not be found or removed.
    static func token(_ message: String) -> PowerAuthFailure {
        PowerAuthFailure(code: "ERR_TOKEN", message: message, status: .badRequest)
    }

    /// The signature did not verify, or the activation cannot sign (`401`, the published code).
    static func authentication(_ message: String = "Signature validation failed") -> PowerAuthFailure {
        PowerAuthFailure(code: "POWERAUTH_AUTH_FAIL", message: message, status: .unauthorized)
    }

    /// Too many failed signatures came from the client's network: not counted, try again later
    /// (`429`, the code of a failed signature so a stock client treats it as one).
    static func throttled(retryAfterSeconds: Int) -> PowerAuthFailure {
        PowerAuthFailure(
            code: "POWERAUTH_AUTH_FAIL",
            message: "Too many failed signatures came from this network: try again in \(retryAfterSeconds) seconds.",
            status: .tooManyRequests, retryAfterSeconds: retryAfterSeconds)
    }

    /// Anything unexpected: the details are in the server's log.
    static let internalError = PowerAuthFailure(
        code: "ERR_GENERIC", message: "The request could not be processed.", status: .internalServerError)
}
