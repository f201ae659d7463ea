import Foundation
import Keyway
import KeywayProtocol

extension FlowSession {
    /// Shows the matching number and the QR data of an `awaitApproval` prompt, then waits while
    /// the SDK polls, until the flow moves on (approved, denied, expired).
    func awaitApproval(
        matchingNumber: String, qrData: Sensitive<String>, expiresAt: Date, context: PromptContext
    ) async -> Bool {
        terminal.status("Approve this sign-in on one of your trusted devices (keyway approve).")
        terminal.status("Matching number: \(matchingNumber)")
        terminal.status("Or approve by scanning this code (keyway approve --qr DATA):")
        terminal.qrCode(qrData.revealed)
        terminal.status(qrData.revealed)
        terminal.status("Waiting until \(Self.timeFormatter.string(from: expiresAt))…")
        for await update in flow.updates {
            if case .prompt(let current, .awaitApproval) = update, current == context { continue }
            if case .loading = update { continue }
            break
        }
        return true
    }

    private static let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }()
}
