import ArgumentParser
import Foundation
import Keyway

/// `keyway login IDENTIFIER`: signs in through the SDK, prompting in the terminal.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in with your email address or phone number.",
        discussion: """
            Prompts go to standard error; every step the server asks for is rendered (method choice, \
            codes, authenticator setup, password, forms). Type 'cancel' at a prompt to stop. When standard \
            input is not a terminal, answers (passwords included) are read from it line by line. With \
            --json the verified token response is printed on standard output and nothing else is. The \
            session is kept, encrypted, in the state folder for keyway token, whoami, account and logout.
            """)

    @OptionGroup var options: ClientOptions
    @OptionGroup var flowOptions: FlowOptions

    @Argument(help: "Your email address or phone number (+14155550123).")
    var identifier: String

    func run() async throws {
        let keyway = try options.makeKeyway(primaryMethodSelectionPolicy: flowOptions.selectMethod.policy)
        let stored = try options.makeSession(keyway)
        let terminal = Terminal()
        let identifier = identifier
        let outcome = await FlowSession.run(keyway: keyway, stored: stored, terminal: terminal, server: options.server) {
            await $0.start(identifier: identifier, flowType: .signin)
            return true
        }
        guard case .signedIn(let tokens) = outcome else { throw ExitCode.failure }
        try SignInResult.show(tokens, terminal: terminal, json: flowOptions.json)
    }
}
