import Foundation
import KeywayProtocol

/// The problems of waiting for an approval.
extension FlowProblem {
    static let approvalDenied = FlowProblem(
        .approvalDenied, status: 403, title: "Sign-in denied",
        detail: "The sign-in was denied from one of your trusted devices.", action: .abort)

    static let approvalExpired = FlowProblem(
        .approvalExpired, status: 410, title: "Approval expired",
        detail: "No trusted device approved the sign-in in time. Start again.", action: .restartFlow)

    static func slowDown(seconds: Int) -> FlowProblem {
        FlowProblem(
            .slowDown, status: 429, title: "Polling too fast",
            detail: "Wait \(seconds) seconds between polls.", action: .wait, retryable: true,
            retryAfterSeconds: seconds)
    }
}
