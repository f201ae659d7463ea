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

            When the kept session is a guest's (keyway guest), the sign-up upgrades the guest: the \
            account keeps the guest's user ID. If the identifier already has an account, you choose \
            to sign in to that account instead (the guest's data is then the app's to merge) or to \
            stay a guest (the command ends and the guest session stays).
            """)

    @OptionGroup var options: ClientOptions
    @OptionGroup var flowOptions: FlowOptions

    @Option(help: "An invitation code, where sign-up requires one.")
    var inviteCode: String?

    @Argument(help: "Your email address or phone number (+14155550123).")
    var identifier: String

    func run() async throws {
        let keyway = try options.makeKeyway(primaryMethodSelectionPolicy: flowOptions.selectMethod.policy)
        let stored = keyway.session
        let terminal = Terminal()
        let identifier = identifier
        let inviteCode = inviteCode
        let redirect = try ProviderRedirect(options: flowOptions)
        defer { redirect.close() }
        // The kept session's current account, when it is a guest: the sign-up upgrades it.
        let guest = (try? await stored.tokens()).flatMap { $0?.idToken.isAnonymous == true ? $0 : nil }
        if let guest { terminal.status("Signing up the guest \(guest.idToken.subject).") }
        let outcome = await FlowSession.run(
            keyway: keyway, stored: stored, terminal: terminal, server: options.server, redirect: redirect,
            passkeys: try options.makePasskeyAuthenticator(), passkeyStore: options.stateDirectory
        ) { model in
            guard let guest else {
                await model.start(
                    identifier: identifier, flowType: .signup, inviteCode: inviteCode, options: redirect.startOptions)
                return true
            }
            do throws(SessionError) {
                try await model.startGuestUpgrade(identifier: identifier, inviteCode: inviteCode, account: guest.idToken.subject)
                return true
            } catch {
                terminal.status("Error: \(DeviceCommandSupport.sentence(for: error, server: options.server))")
                return false
            }
        }
        switch outcome {
        case .signedIn(let tokens):
            try SignInResult.show(tokens, terminal: terminal, json: flowOptions.json)
            options.rememberServer()
            if let guest, tokens.idToken.subject != guest.idToken.subject, !flowOptions.json {
                terminal.status(
                    "You signed in to your existing account instead; the guest \(guest.idToken.subject) stays until the app merges it.")
            }
        case .finished where guest != nil:
            // The user chose to stay a guest.
            return
        default:
            throw ExitCode.failure
        }
    }
}
