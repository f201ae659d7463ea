import Foundation
import KeywayProtocol

/// The refusals of guests: making one, upgrading one, and what a guest may not do before it signs up.
extension FlowProblem {
    static let guestsDisabled = FlowProblem(
        .guestsDisabled, status: 403, title: "Guests not allowed",
        detail: "This application does not let people continue as guests. Sign in or sign up.", action: .abort)

    static let notAGuest = FlowProblem(
        .notAGuest, status: 409, title: "Not a guest",
        detail: "This access token is not a guest's: the account has signed up already.", action: .abort)

    static let invalidGuestToken = FlowProblem(
        .invalidAccessToken, status: 401, title: "Guest session invalid",
        detail: "The guest's access token is invalid, expired or revoked. Continue as a new guest, or sign in.",
        action: .abort)

    static let guestOfAnotherApplication = FlowProblem(
        .invalidAccessToken, status: 401, title: "Guest of another application",
        detail: "The guest's access token was issued to another application: upgrade it from the application that made it.",
        action: .abort)

    static let upgradeRequired = FlowProblem(
        .upgradeRequired, status: 403, title: "Sign up first",
        detail: "Guests cannot do this. Sign up to keep what you have: your data stays with your new account.",
        action: .abort)
}
