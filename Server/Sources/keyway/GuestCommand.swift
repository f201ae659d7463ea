import ArgumentParser
import Foundation
import Keyway

/// `keyway guest`: signs in as a guest through the SDK and keeps the session, as `keyway login`
/// does.
struct GuestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guest",
        abstract: "Continue as a guest: an account without an email address or phone number.",
        discussion: """
            Where the application's policy allows guests, the server makes a guest account and the \
            session is kept like keyway login's (keyway token, whoami and logout use it). A later \
            keyway signup IDENTIFIER upgrades the guest: the account keeps its user ID. With --json \
            the verified token response is printed on standard output and nothing else is.
            """)

    @OptionGroup var options: ClientOptions

    @Flag(help: "Print the verified token response as JSON on standard output.")
    var json = false

    func run() async throws {
        let keyway = try options.makeKeyway()
        let terminal = Terminal()
        try await DeviceCommandSupport.running(terminal: terminal, server: options.server) {
            let tokens = try await keyway.session.signInAsGuest()
            try SignInResult.show(tokens, terminal: terminal, json: json)
            options.rememberServer()
            if !json { terminal.status("Sign up with keyway signup IDENTIFIER to keep this account.") }
        }
    }
}
