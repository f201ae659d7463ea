import Foundation
import KeywayProtocol

/// The problems of the authenticator step.
extension FlowProblem {
    static let codeReplayed = FlowProblem(
        .codeReplayed, status: 400, title: "Code already used",
        detail: "That code was already used. Wait for the next code in your authenticator app.", action: .retryInput)
}
