import Foundation
import Keyway
import KeywayProtocol

/// The account-management prompt: the account's methods, then its operations as a numbered list.
extension FlowSession {
    func answerManageAccount(methods: [EnrolledMethod], devices: [TrustedDevice]?, operations: [Action]) async -> Bool {
        terminal.status("Your sign-in methods:")
        if methods.isEmpty { terminal.status("  (none)") }
        for method in methods {
            var line = "  - \(method.label)"
            if let detail = method.detail { line += " (\(detail))" }
            if method.isSecondFactor { line += " · second factor" }
            terminal.status(line)
        }
        if let devices {
            terminal.status("Trusted devices:")
            if devices.isEmpty { terminal.status("  (none)") }
            for device in devices {
                let key = device.hardwareBacked ? "hardware key" : "software key"
                terminal.status("  - \(device.name) (\(key), trusted until \(Terminal.format(device.trustedUntil)))")
            }
        }
        guard !operations.isEmpty else {
            terminal.status("Error: the server offered no operation.")
            await flow.cancel()
            return false
        }
        terminal.status("What would you like to do?")
        for (index, operation) in operations.enumerated() {
            terminal.status("  \(index + 1). \(operation.label ?? operation.name)")
        }
        while true {
            guard let line = await read("Choose 1-\(operations.count) ('cancel'): ") else { return false }
            guard let choice = Int(line), operations.indices.contains(choice - 1) else {
                if !line.isEmpty { terminal.status("Type a number from 1 to \(operations.count).") }
                continue
            }
            let operation = operations[choice - 1]
            if operation.name == "finish" { finishing = true }
            guard operation.fields.allSatisfy({ $0.type == .hidden }) else {
                // An operation that takes input: ask for its fields, then send it as is.
                guard let values = FieldReader(terminal: terminal).values(for: operation.fields) else {
                    await flow.cancel()
                    return false
                }
                await flow.submit(action: operation, parameters: operation.validate(values).values)
                return true
            }
            await flow.perform(operation: operation.name)
            return true
        }
    }
}
