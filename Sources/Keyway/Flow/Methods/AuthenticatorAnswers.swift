import Foundation
import KeywayProtocol

/// Authenticator apps: the answer to a ``Prompt/setupTotp(secret:otpauthUrl:period:digits:algorithm:)``
/// or ``Prompt/enterTotp(digits:purpose:)`` prompt.
extension FlowAction {
    static let submitTotp = FlowAction(
        name: "submitTotp", unavailableMessage: "This step does not ask for an authenticator code.")
}

extension KeywayFlow {
    /// Sends an authenticator code for a ``Prompt/setupTotp(secret:otpauthUrl:period:digits:algorithm:)``
    /// or ``Prompt/enterTotp(digits:purpose:)`` prompt. Spaces are removed (`"123 456"` is sent as
    /// `"123456"`). A wrong code gives an error with `retryInput`; the prompt stays valid.
    ///
    /// - Parameter code: The code the authenticator app shows.
    public func submitTotp(_ code: String) async {
        await driver.perform(.submitTotp, parameters: ["code": code.filter { !$0.isWhitespace }])
    }
}
