import Foundation
import KeywayProtocol

/// The problems of account-management operations.
extension FlowProblem {
    static let lastSecondFactor = FlowProblem(
        .invalidStep, status: 409, title: "Last second factor",
        detail: "This application requires a second factor: set up another one before removing this one.",
        action: .retryInput)

    static let lastIdentifier = FlowProblem(
        .invalidStep, status: 409, title: "Needed to sign in",
        detail: "This phone number is how you sign in, so it cannot be removed.", action: .retryInput)
}
