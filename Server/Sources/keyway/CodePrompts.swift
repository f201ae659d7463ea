import Foundation
import Keyway
import KeywayProtocol

/// The prompt that asks for a code sent by email or SMS.
extension FlowSession {
    func answerEnterCode(codeLength: Int, resendAt: Date) async -> Bool {
        while true {
            guard let line = await read("Enter the \(codeLength)-digit code ('resend' or 'cancel'): ") else { return false }
            switch line.lowercased() {
            case "":
                continue
            case "resend":
                if await flow.resend() {
                    terminal.status("A new code is on its way.")
                    return true
                }
                if case .error = flow.currentUpdate { return true }
                // Clamped before the conversion: a server's time far off cannot trap here.
                let wait = Int(min(max(1, resendAt.timeIntervalSinceNow.rounded(.up)), 86_400))
                terminal.status("You can ask for a new code in \(wait) seconds.")
                continue
            default:
                await flow.submitCode(line)
                return true
            }
        }
    }
}
