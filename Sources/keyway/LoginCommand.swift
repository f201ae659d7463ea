import ArgumentParser
import Foundation
import Keyway
import KeywayProtocol

/// `keyway login EMAIL`: signs in through the SDK, prompting in the terminal.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in with a one-time code sent to your email address.",
        discussion: """
            Prompts go to standard error. At the code prompt, type the code, 'resend' for a new code, or \
            'cancel'. When standard input is not a terminal, the code is read from it line by line. With \
            --json the verified token response is printed on standard output and nothing else is. The \
            session is kept, encrypted, in the state folder for keyway token, whoami and logout.
            """)

    @OptionGroup var options: ClientOptions

    @Flag(help: "Print the verified token response as JSON on standard output.")
    var json = false

    @Argument(help: "Your email address.")
    var email: String

    func run() async throws {
        let keyway = try options.makeKeyway()
        let stored = try options.makeSession(keyway)
        let terminal = Terminal()
        let session = LoginSession(keyway: keyway, terminal: terminal, server: options.server)
        guard let completed = await session.run(email: email) else { throw ExitCode.failure }
        do {
            let tokens = try await keyway.exchange(authCode: completed.authCode, codeVerifier: completed.codeVerifier)
            do {
                try await stored.save(tokens)
            } catch {
                terminal.status("Warning: the session could not be saved: \(error)")
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                terminal.output(String(decoding: try encoder.encode(tokens.response), as: UTF8.self))
            } else {
                terminal.status("Signed in as \(tokens.idToken.email ?? tokens.idToken.subject).")
                terminal.status("Subject:        \(tokens.idToken.subject)")
                terminal.status("Session:        \(tokens.idToken.sessionId ?? "-")")
                terminal.status("Access token expires at \(Terminal.format(tokens.accessTokenExpiresAt)).")
            }
        } catch {
            terminal.status("Error: the code could not be redeemed: \(error)")
            throw ExitCode.failure
        }
    }
}
