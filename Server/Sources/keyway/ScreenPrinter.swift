import Foundation
import Keyway
import KeywayProtocol
import KeywayUI

/// Prints what a screen shows — its title, messages and displays — and the error of its banner,
/// on standard error.
struct ScreenPrinter {
    let terminal: Terminal
    /// The server's URL, for the sentence about a server that cannot be reached.
    let server: String

    /// The title, the messages and the displays of a step screen.
    func printHeader(_ screen: Screen) {
        if !screen.title.isEmpty { terminal.status("\n\(screen.title)") }
        printMessages(screen.messages)
        for display in screen.displays { print(display) }
    }

    /// Messages, one a line: errors and warnings say so.
    func printMessages(_ messages: [ScreenMessage]) {
        for message in messages {
            switch message.level {
            case .error: terminal.status("Error: \(message.text)")
            case .warning: terminal.status("Warning: \(message.text)")
            case .info: terminal.status(message.text)
            }
        }
    }

    /// A secret grouped by four, a QR code drawn above its text (on a line of its own, to copy),
    /// a value to compare, a list with its details.
    func print(_ display: ScreenDisplay) {
        switch display {
        case .secret(let label, let value):
            terminal.status("\(label): \(Wording.grouped(value.revealed))")
        case .qrCode(let label, let data):
            terminal.status("\(label):")
            terminal.qrCode(data.revealed)
            terminal.status(data.revealed)
        case .emphasis(let label, let value):
            terminal.status("\(label): \(value)")
        case .list(let title, let items):
            terminal.status("\(title):")
            if items.isEmpty { terminal.status("  (none)") }
            for item in items {
                terminal.status("  - \(item.title)" + (item.detail.map { " (\($0))" } ?? ""))
            }
        }
    }

    /// One line for an error: its sentence and code, what to do about it, and its trace ID.
    func report(_ banner: Banner) {
        if banner.code == .networkError {
            // The reason (a timeout, a refused connection) goes with it: what tells them apart.
            terminal.status("Error: could not reach the Keyway server at \(server) (\(banner.message)). Is it running?")
            return
        }
        var line = "Error: \(banner.message) [\(banner.code.rawValue)]"
        switch banner.action {
        case .restartFlow:
            line += " Run the command again to start over."
        case .abort:
            // A denied approval is a decision, not a misconfiguration.
            if banner.problem?.status != 0, banner.code != .approvalDenied { line += " Check the server URL and config ID." }
        case .wait:
            if let retryAt = banner.problem?.retryAt { line += " Try again at \(Terminal.format(retryAt))." }
        default:
            break
        }
        if let traceID = banner.traceID { line += " (trace \(traceID))" }
        terminal.status(line)
    }
}
