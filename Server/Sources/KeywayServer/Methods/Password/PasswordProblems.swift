import Foundation
import KeywayProtocol

/// The problems of the password step.
extension FlowProblem {
    static func invalidCredentials(attemptsRemaining: Int) -> FlowProblem {
        FlowProblem(
            .invalidCredentials, status: 400, title: "Wrong identifier or password",
            detail: attemptsRemaining == 1
                ? "The identifier or the password is not right. You have 1 attempt left."
                : "The identifier or the password is not right. You have \(attemptsRemaining) attempts left.",
            action: .retryInput, attemptsRemaining: attemptsRemaining)
    }

    static func weakPassword(_ fields: [InvalidField]) -> FlowProblem {
        FlowProblem(
            .weakPassword, status: 400, title: "Choose another password",
            detail: fields.map(\.reason).joined(separator: " "), action: .retryInput, invalidFields: fields)
    }

    static let passwordChecksBusy = FlowProblem(
        .serviceUnavailable, status: 503, title: "Busy",
        detail: "The server is checking too many passwords at once. Try again in a second.", action: .wait,
        retryable: true, retryAfterSeconds: 1)
}
