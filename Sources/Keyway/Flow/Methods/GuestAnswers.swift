import Foundation
import KeywayProtocol

/// A guest's upgrade that met an existing account: answering an
/// ``Prompt/accountExists(identifierHint:)`` prompt.
extension FlowAction {
    static let signInInstead = FlowAction(
        name: "signInInstead", unavailableMessage: "This step does not offer to sign in to an existing account.")
    static let stayGuest = FlowAction(name: "stayGuest", unavailableMessage: "This step does not offer to stay a guest.")
}

extension KeywayFlow {
    /// Answers an ``Prompt/accountExists(identifierHint:)`` prompt by signing in to the existing
    /// account: the flow goes on as a sign-in to it (its second factor where the policy asks for
    /// one), and on completion ``KeywayEvent/Name/guestMerged`` names the guest and the account so
    /// the app can hand the guest's data to its backend (which also receives `guest.merged`).
    public func signInInstead() async {
        await driver.perform(.signInInstead, parameters: [:])
    }

    /// Answers an ``Prompt/accountExists(identifierHint:)`` prompt by staying a guest: the flow
    /// ends on the server and here (the flow goes back to idle); the guest's session is kept.
    public func stayGuest() async {
        await driver.stayGuest()
    }
}
