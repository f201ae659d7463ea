import ArgumentParser
import Foundation
import Keyway
import KeywayProtocol

/// `keyway approve`: lists the sign-ins waiting for this trusted device's approval, and approves
/// or denies one.
struct ApproveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve",
        abstract: "Approve or deny a sign-in on another device from this trusted one.",
        discussion: """
            Without an ID, lists the sign-ins of the account waiting for approval (on standard output): \
            the application, where and from what client the request comes, when, the matching number \
            the other device shows, and the request ID. With --yes the only waiting sign-in is approved (or denied, with --deny); \
            from a terminal, with exactly one waiting, you are asked. keyway approve ID approves that \
            request (--deny refuses it); --qr DATA approves the sign-in whose QR data the other device \
            shows. This machine must be a trusted device of the account: sign in on it first, with the \
            second factor. Exit status 0 when done, 1 on failure.
            """)

    @OptionGroup var options: ClientOptions

    @Option(help: "The identifier this machine signed in with (default: the signed-in session's email address).")
    var identifier: String?

    @Option(help: ArgumentHelp("Seconds to wait for a sign-in to arrive when none is waiting (0-30).", valueName: "seconds"))
    var wait = 0

    @Flag(help: "Deny the sign-in instead of approving it.")
    var deny = false

    @Flag(name: .shortAndLong, help: "Decide the only waiting sign-in without asking.")
    var yes = false

    @Option(
        name: .customLong("qr"),
        help: ArgumentHelp("Approve the sign-in whose QR data (keyway-approve:v1?…) the other device shows.", valueName: "data"))
    var qrData: String?

    @Argument(help: "The ID of the approval request to decide (apr_…), as the list shows it.")
    var id: String?

    func validate() throws {
        guard (0...30).contains(wait) else { throw ValidationError("--wait takes 0 to 30 seconds.") }
        if qrData != nil, id != nil || deny || yes {
            throw ValidationError("--qr approves the sign-in its data names: give no ID, --deny or --yes with it.")
        }
    }

    func run() async throws {
        let keyway = try options.makeKeyway()
        let session = keyway.session
        let terminal = Terminal()
        do {
            guard let identifier = try await DeviceCommandSupport.identifier(explicit: identifier, session: session) else {
                terminal.status(
                    "Error: no signed-in session with an email address. Run keyway login first, or pass --identifier.")
                throw ExitCode.failure
            }
            if let qrData {
                try await keyway.approve(qrData: qrData, for: identifier)
                terminal.status("Approved.")
                return
            }
            if wait > 0 { terminal.status("Waiting up to \(wait) seconds for a sign-in to approve…") }
            let requests = try await keyway.pendingApprovals(for: identifier, waitSeconds: wait)
            let decision: ApprovalDecision = deny ? .deny : .approve
            if let id {
                guard let request = requests.first(where: { $0.id == id }) else {
                    terminal.status("Error: no sign-in waiting for approval has the ID \(id).")
                    throw ExitCode.failure
                }
                try await decide(request, decision, identifier: identifier, keyway: keyway, terminal: terminal)
                return
            }
            guard !requests.isEmpty else {
                terminal.status("No sign-in is waiting for approval.")
                if yes { throw ExitCode.failure }
                return
            }
            for request in requests { terminal.output(Self.describe(request)) }
            guard requests.count == 1, let request = requests.first else {
                if yes {
                    terminal.status("Error: \(requests.count) sign-ins are waiting; give the ID of the one to decide.")
                    throw ExitCode.failure
                }
                return
            }
            if !yes {
                guard terminal.interactive else { return }
                let verb = deny ? "Deny" : "Approve"
                let answer = terminal.ask("\(verb) the sign-in showing \(request.matchingNumber)? [y/N] ")
                guard let answer, ["y", "yes"].contains(answer.lowercased()) else {
                    terminal.status("Nothing decided.")
                    return
                }
            }
            try await decide(request, decision, identifier: identifier, keyway: keyway, terminal: terminal)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw DeviceCommandSupport.fail(error, terminal: terminal, server: options.server)
        }
    }

    private func decide(
        _ request: ApprovalRequest, _ decision: ApprovalDecision, identifier: String, keyway: KeywayClient, terminal: Terminal
    ) async throws {
        try await keyway.decide(request, decision, for: identifier)
        let done = decision == .deny ? "Denied" : "Approved"
        terminal.status("\(done) the sign-in to \(request.applicationName) showing \(request.matchingNumber).")
    }

    static func describe(_ request: ApprovalRequest) -> String {
        [
            "\(request.id)  matching number \(request.matchingNumber)",
            "  Application: \(request.applicationName)",
            "  Location:    \(request.location ?? "unknown")",
            "  Client:      \(request.userAgent ?? "unknown")",
            "  Requested:   \(Terminal.format(request.createdAt))",
            "  Expires:     \(Terminal.format(request.expiresAt))",
        ].joined(separator: "\n")
    }
}
