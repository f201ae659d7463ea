import Foundation
import Keyway
import KeywayProtocol

/// The password prompt: read without echo from a terminal, as a plain line from a pipe.
extension FlowSession {
    /// Signing in asks once. A new password (create, change) is checked against the minimum
    /// length, and typed twice when standard input is a terminal.
    func answerEnterPassword(purpose: PasswordPurpose, minimumLength: Int?) async -> Bool {
        let choosing = purpose != .signIn
        var question = purpose == .change ? "New password" : choosing ? "Choose a password" : "Password"
        if choosing, let minimumLength { question += " (at least \(minimumLength) characters)" }
        question += ": "
        if let reason = fieldErrors["password"] { terminal.status("  ✕ \(reason)") }
        while true {
            guard let password = terminal.askSecret(question) else {
                terminal.status("No input: cancelling.")
                await flow.cancel()
                return false
            }
            if password.isEmpty { continue }
            if choosing, let minimumLength, password.count < minimumLength {
                terminal.status("  ✕ Use at least \(minimumLength) characters.")
                continue
            }
            if choosing, terminal.interactive {
                guard let again = terminal.askSecret("Type it again: ") else {
                    await flow.cancel()
                    return false
                }
                guard again == password else {
                    terminal.status("  ✕ The two passwords differ.")
                    continue
                }
            }
            await flow.submitPassword(password)
            return true
        }
    }
}
