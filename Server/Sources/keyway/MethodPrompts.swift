import Foundation
import Keyway
import KeywayProtocol

/// The prompts about methods: choosing one, and giving the phone number for SMS codes.
extension FlowSession {
    /// A numbered list of the methods; `s` skips when the step allows it.
    func answerSelectMethod(methods: [MethodOption], purpose: MethodPurpose, skippable: Bool) async -> Bool {
        guard !methods.isEmpty || skippable else {
            terminal.status("Error: the server offered no method to choose.")
            await flow.cancel()
            return false
        }
        terminal.status(Self.title(of: purpose))
        for (index, method) in methods.enumerated() {
            var line = "  \(index + 1). \(method.label)"
            if let destination = method.destination, !method.label.contains(destination) { line += " (\(destination))" }
            terminal.status(line)
        }
        let range = methods.isEmpty ? "" : "Choose 1-\(methods.count)"
        let extras = (skippable ? ["'s' to skip"] : []) + ["'cancel'"]
        let question = [range, "(" + extras.joined(separator: ", ") + ")"].filter { !$0.isEmpty }.joined(separator: " ") + ": "
        while true {
            guard let line = await read(question) else { return false }
            if skippable, ["s", "skip"].contains(line.lowercased()) {
                await flow.skip()
                return true
            }
            if let choice = Int(line), methods.indices.contains(choice - 1) {
                await flow.selectMethod(id: methods[choice - 1].id)
                return true
            }
            if !line.isEmpty { terminal.status("Type a number from 1 to \(methods.count).") }
        }
    }

    /// Asks for the phone number; shows the one on the account, if any. When the step's phone
    /// field comes pre-filled, an empty answer keeps it.
    func answerSetupSms(existingPhone: String?, step: Step) async -> Bool {
        let phoneField = step.action(named: "submitPhone")?.fields.first { $0.name == "phone" }
        let keepable = phoneField?.value.map { !$0.isEmpty } ?? false
        if let existingPhone { terminal.status("Phone number on your account: \(existingPhone)") }
        if let reason = fieldErrors["phone"] { terminal.status("  ✕ \(reason)") }
        let hint = keepable ? "; Enter to keep it" : ""
        while true {
            guard let line = await read("Phone number for codes by SMS (such as +14155550123\(hint)): ") else {
                return false
            }
            if line.isEmpty {
                guard keepable, let action = step.action(named: "submitPhone") else { continue }
                await flow.submit(action: action)
                return true
            }
            await flow.submitPhone(line)
            return true
        }
    }

    private static func title(of purpose: MethodPurpose) -> String {
        switch purpose {
        case .primary: "Choose how to sign in:"
        case .secondFactor: "Choose a second factor:"
        case .enrolment: "Choose a method to set up:"
        case .reverification: "Confirm it is you:"
        default: "Choose a method:"
        }
    }
}
