import Foundation
import KeywayProtocol

/// The problems of sign-in links.
extension FlowProblem {
    static let invalidLink = FlowProblem(
        .invalidLink, status: 400, title: "Link not valid",
        detail: "That link does not belong to this sign-in. Open the latest link we sent, or enter the code.",
        action: .retryInput)

    static let linkUsed = FlowProblem(
        .linkUsed, status: 409, title: "Link already used",
        detail: "That link was already used. Enter the code, or ask for a new link.", action: .resendCode)

    static let linkDenied = FlowProblem(
        .linkDenied, status: 403, title: "Sign-in denied",
        detail: "The sign-in was denied on the device that opened the link.", action: .abort)
}
