import Foundation
import Keyway
import KeywayProtocol

/// The authenticator-app prompts: setting one up (the secret, its otpauth URL and a terminal QR
/// code) and entering its code.
extension FlowSession {
    /// Prints the secret grouped by four and the otpauth URL on a line of its own
    /// (`otpauth: otpauth://totp/…`), then asks for the first code.
    func answerSetupTotp(
        secret: Sensitive<String>, otpauthUrl: Sensitive<String>, period: Int, digits: Int, algorithm: String
    ) async -> Bool {
        terminal.status("Add this account to your authenticator app (scan the otpauth URL as a QR code, or type the secret).")
        terminal.status("Secret:  \(Self.grouped(secret.revealed))")
        terminal.qrCode(otpauthUrl.revealed)
        terminal.status("otpauth: \(otpauthUrl.revealed)")
        terminal.status("(\(algorithm), \(digits) digits, a new code every \(period) seconds)")
        return await askTotp(digits: digits)
    }

    func answerEnterTotp(digits: Int, attemptsRemaining: Int?) async -> Bool {
        if let attemptsRemaining, attemptsRemaining < 3 {
            terminal.status("\(attemptsRemaining) attempt\(attemptsRemaining == 1 ? "" : "s") left.")
        }
        return await askTotp(digits: digits)
    }

    private func askTotp(digits: Int) async -> Bool {
        while true {
            guard let line = await read("Enter the \(digits)-digit code from your authenticator app ('cancel'): ") else {
                return false
            }
            if line.isEmpty { continue }
            await flow.submitTotp(line)
            return true
        }
    }

    /// `ABCDEFGHIJ` → `ABCD EFGH IJ`.
    static func grouped(_ secret: String) -> String {
        var groups: [String] = []
        var rest = Substring(secret)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(4)))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }
}
