import ArgumentParser
import Foundation
import Keyway

/// `keyway account`: manages the signed-in user's methods through an account-management flow.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account",
        abstract: "See and change the signed-in account's methods (authenticator app, SMS, password).",
        discussion: """
            Starts an account-management flow with the stored session's access token and renders its \
            steps: the account's methods and a numbered list of operations, and whatever an operation \
            asks for. Choose 'Finish' (or type 'cancel') to stop. When the flow ends with a new sign-in, \
            the stored session is replaced by it.
            """)

    @OptionGroup var options: ClientOptions

    @Flag(help: "Print the verified token response as JSON on standard output when the flow ends with a sign-in.")
    var json = false

    func run() async throws {
        let keyway = try options.makeKeyway()
        let stored = keyway.session
        let terminal = Terminal()
        let outcome = await FlowSession.run(
            keyway: keyway, stored: stored, terminal: terminal, server: options.server,
            passkeys: try options.makePasskeyAuthenticator(), passkeyStore: options.stateDirectory
        ) {
            do throws(SessionError) {
                try await $0.startAccountManagement()
                return true
            } catch {
                terminal.status("Error: \(error)\(error == .noAccessTokenPresent ? " Run keyway login first." : "")")
                return false
            }
        }
        switch outcome {
        case .signedIn(let tokens):
            try SignInResult.show(tokens, terminal: terminal, json: json)
        case .finished:
            break
        case .failed:
            throw ExitCode.failure
        }
    }
}
