import Foundation
import KeywayProtocol

/// An error a flow request answers with: an RFC 7807 problem. The trace ID is filled in by the
/// HTTP layer.
struct FlowProblem: Error, Sendable {
    var problem: Problem

    init(
        _ code: ProblemCode, status: Int, title: String, detail: String, action: ProblemAction,
        retryable: Bool = false, retryAt: Date? = nil, retryAfterSeconds: Int? = nil,
        attemptsRemaining: Int? = nil, invalidFields: [InvalidField]? = nil
    ) {
        problem = Problem(
            code: code, status: status, title: title, detail: detail, action: action, retryable: retryable,
            retryAt: retryAt, retryAfterSeconds: retryAfterSeconds, attemptsRemaining: attemptsRemaining,
            invalidFields: invalidFields)
    }

    static func invalidRequest(_ fields: [InvalidField], detail: String? = nil) -> FlowProblem {
        FlowProblem(
            .invalidRequest, status: 400, title: "Invalid request",
            detail: detail ?? "The request has invalid fields: \(fields.map(\.name).joined(separator: ", ")).",
            action: .retryInput, invalidFields: fields)
    }

    static func invalidScope(_ detail: String) -> FlowProblem {
        FlowProblem(.invalidScope, status: 400, title: "Invalid scope", detail: detail, action: .abort)
    }

    static let invalidRedirectURI = FlowProblem(
        .invalidRedirectURI, status: 400, title: "Unregistered redirect URI",
        detail: "The redirectUri is not one the application registered.", action: .abort)

    static let missingConfigId = FlowProblem(
        .missingConfigId, status: 400, title: "Missing config ID",
        detail: "Send the application's config ID in the \(ProtocolHeader.configID) header.", action: .abort)

    static let unknownConfigId = FlowProblem(
        .unknownConfigId, status: 401, title: "Unknown config ID",
        detail: "The config ID does not name an application on this server.", action: .abort)

    static func flowTypeNotEnabled(_ type: FlowType) -> FlowProblem {
        FlowProblem(
            .flowTypeNotEnabled, status: 403, title: "Flow type not enabled",
            detail: "This application does not allow \(type.rawValue) flows.", action: .abort)
    }

    /// Too many attempts in the rate-limit window: `wait` until it ends.
    static func rateLimited(until retryAt: Int64, now: Int64) -> FlowProblem {
        let seconds = max(1, Int((retryAt - now + 999) / 1000))
        return FlowProblem(
            .rateLimited, status: 429, title: "Too many attempts",
            detail: "There were too many attempts in a short time. Try again in \(seconds) seconds.",
            action: .wait, retryable: true, retryAt: Date(epochMilliseconds: retryAt), retryAfterSeconds: seconds)
    }

    static let flowNotFound = FlowProblem(
        .flowNotFound, status: 404, title: "Flow not found",
        detail: "This sign-in no longer exists. Start again.", action: .restartFlow)

    static let flowExpired = FlowProblem(
        .flowExpired, status: 410, title: "Flow expired",
        detail: "This sign-in took too long and expired. Start again.", action: .restartFlow)

    static let flowClosed = FlowProblem(
        .flowClosed, status: 409, title: "Flow closed",
        detail: "This sign-in is already finished. Start again to sign in once more.", action: .restartFlow)

    static func invalidCode(attemptsRemaining: Int) -> FlowProblem {
        FlowProblem(
            .invalidCode, status: 400, title: "Wrong code",
            detail: attemptsRemaining == 1
                ? "That code is not right. You have 1 attempt left."
                : "That code is not right. You have \(attemptsRemaining) attempts left.",
            action: .retryInput, attemptsRemaining: attemptsRemaining)
    }

    static let tooManyAttempts = FlowProblem(
        .tooManyAttempts, status: 429, title: "Too many attempts",
        detail: "Too many wrong codes. Start again to get a new code.", action: .restartFlow,
        attemptsRemaining: 0)

    static let deliveryFailed = FlowProblem(
        .deliveryFailed, status: 503, title: "Delivery failed",
        detail: "The code could not be sent. Try again in a moment.", action: .retryRequest, retryable: true)

    static let internalError = FlowProblem(
        .internalError, status: 500, title: "Internal error",
        detail: "Something went wrong on the server. Try again; quote the trace ID if it keeps happening.",
        action: .retryRequest, retryable: true)

    /// The database refused the request's transaction for conflicts with others every time it ran
    /// (PostgreSQL, under heavy contention): nothing of it was kept, and the request may be sent
    /// again.
    static let databaseBusy = FlowProblem(
        .serviceUnavailable, status: 503, title: "Busy",
        detail: "The server is too busy, or cannot reach its database, to finish this request. Try again in a second.",
        action: .wait, retryable: true, retryAfterSeconds: 1)

    static let invalidStep = FlowProblem(
        .invalidStep, status: 409, title: "Not this step",
        detail: "This flow is not waiting for that. Read the current step and use one of its actions.",
        action: .retryInput)

    static let methodUnavailable = FlowProblem(
        .methodUnavailable, status: 503, title: "Method unavailable",
        detail: "This method cannot be used right now. Choose another one.", action: .selectMethod, retryable: true)

    static let secondFactorUnavailable = FlowProblem(
        .methodUnavailable, status: 403, title: "Second factor unavailable",
        detail: "This application requires a second factor, and none can be used or set up for this account. Contact the application's support.",
        action: .abort)

    static let userBlocked = FlowProblem(
        .userBlocked, status: 403, title: "Account blocked",
        detail: "This account is blocked. Contact the application's support.", action: .abort)

    static let invalidStartToken = FlowProblem(
        .invalidStartToken, status: 400, title: "Invalid start link",
        detail: "This start link is invalid, expired or already used. Start again.", action: .restartFlow)

    static let inviteCodeRequired = FlowProblem(
        .invalidInviteCode, status: 400, title: "Invitation code required",
        detail: "Signing up needs an invitation code.", action: .retryInput,
        invalidFields: [InvalidField(name: "inviteCode", reason: "Enter your invitation code.")])

    static let invalidInviteCode = FlowProblem(
        .invalidInviteCode, status: 400, title: "Wrong invitation code",
        detail: "That invitation code is not valid or has expired. Check it and try again.", action: .retryInput,
        invalidFields: [InvalidField(name: "inviteCode", reason: "This code is not valid.")])

    static let inviteCodeUsed = FlowProblem(
        .inviteCodeUsed, status: 409, title: "Invitation code used",
        detail: "That invitation code was already used. Ask for a new one.", action: .abort)

    static let invalidAccessToken = FlowProblem(
        .invalidAccessToken, status: 401, title: "Sign in first",
        detail: "Managing an account needs a valid access token in the Authorization header.", action: .abort)

    static let accessTokenOfAnotherApplication = FlowProblem(
        .invalidAccessToken, status: 401, title: "Sign in to this application",
        detail: "The access token was issued to another application: manage the account from the application that signed in.",
        action: .abort)

    // MARK: Devices and approvals

    static let invalidDeviceSignature = FlowProblem(
        .invalidDeviceSignature, status: 401, title: "Device not trusted",
        detail: "The device signature does not verify, or the device is not trusted for this account.",
        action: .abort)

    static let approvalAlreadyDecided = FlowProblem(
        .approvalAlreadyDecided, status: 409, title: "Already decided",
        detail: "This sign-in request was already approved or denied.", action: .abort)

    static let approvalNotFound = FlowProblem(
        .approvalNotFound, status: 404, title: "Approval request not found",
        detail: "No pending sign-in request of this account matches.", action: .abort)
}
