import ArgumentParser
import Foundation
import Keyway

/// `keyway signup IDENTIFIER`: creates an account through the SDK, prompting in the terminal.
struct SignupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup",
        abstract: "Create an account with your email address or phone number.",
        discussion: """
            Runs a sign-up flow and renders every step the server asks for, as keyway login does; at \
            the end the new account is signed in and its session kept.
            """)

    @OptionGroup var options: ClientOptions
    @OptionGroup var flowOptions: FlowOptions

    @Option(help: "An invitation code, where sign-up requires one.")
    var inviteCode: String?

    @Argument(help: "Your email address or phone number (+14155550123).")
    var identifier: String

    func run() async throws {
        let keyway = try options.makeKeyway(primaryMethodSelectionPolicy: flowOptions.selectMethod.policy)
        let stored = try options.makeSession(keyway)
        let terminal = Terminal()
        let identifier = identifier
        let inviteCode = inviteCode
        let redirect = try ProviderRedirect(options: flowOptions)
        defer { redirect.close() }
        let outcome = await FlowSession.run(
            keyway: keyway, stored: stored, terminal: terminal, server: options.server, redirect: redirect
        ) {
            await $0.start(identifier: identifier, flowType: .signup, inviteCode: inviteCode, options: redirect.startOptions)
            return true
        }
        guard case .signedIn(let tokens) = outcome else { throw ExitCode.failure }
        try SignInResult.show(tokens, terminal: terminal, json: flowOptions.json)
    }
}
