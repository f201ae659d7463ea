import Foundation
import KeywayProtocol

/// Setting up the phone number that receives SMS codes: the answer to a ``Prompt/setupSms(existingPhone:)`` prompt.
extension FlowAction {
    static let submitPhone = FlowAction(name: "submitPhone", unavailableMessage: "This step does not ask for a phone number.")
}

extension KeywayFlow {
    /// Sends the phone number for a ``Prompt/setupSms(existingPhone:)`` prompt, in E.164 form
    /// (`+14155550123`; the server also accepts spaces and dashes). Leading and trailing spaces
    /// are trimmed.
    ///
    /// - Parameter phone: The phone number.
    public func submitPhone(_ phone: String) async {
        await driver.perform(.submitPhone, parameters: ["phone": phone.trimmingCharacters(in: .whitespacesAndNewlines)])
    }
}
