import Foundation
import KeywayProtocol

/// The problems of the one-time code step.
extension FlowProblem {
    static let codeExpired = FlowProblem(
        .codeExpired, status: 400, title: "Code expired",
        detail: "That code has expired. Ask for a new one.", action: .resendCode)

    static func resendCooldown(until: Date, now: Date) -> FlowProblem {
        let seconds = max(1, Int((until.timeIntervalSince(now)).rounded(.up)))
        return FlowProblem(
            .resendCooldown, status: 429, title: "Too soon",
            detail: "You can ask for a new code in \(seconds) seconds.", action: .wait, retryable: true,
            retryAt: until, retryAfterSeconds: seconds)
    }

    static let resendLimitReached = FlowProblem(
        .resendLimitReached, status: 429, title: "No more codes",
        detail: "No more codes can be sent for this sign-in. Start again.", action: .restartFlow)
}
