import Foundation
import KeywayProtocol

/// Passwords: the answer to a ``Prompt/enterPassword(purpose:minimumLength:)`` prompt.
extension FlowAction {
    static let submitPassword = FlowAction(name: "submitPassword", unavailableMessage: "This step does not ask for a password.")
}

extension KeywayFlow {
    /// Sends the password for a ``Prompt/enterPassword(purpose:minimumLength:)`` prompt, exactly
    /// as typed. The password is never logged, nor part of any event.
    ///
    /// - Parameter password: The password, exactly as typed.
    public func submitPassword(_ password: String) async {
        await driver.perform(.submitPassword, parameters: ["password": password])
    }
}
