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
            --json the verified token response is printed on standard output and nothing else is.
            """)

    @Option(help: "The Keyway server URL.")
    var server = "http://127.0.0.1:8080"

    @Option(help: "The application's config ID (default: $KEYWAY_CONFIG_ID).")
    var configId: String?

    @Flag(help: "Print the verified token response as JSON on standard output.")
    var json = false

    @Argument(help: "Your email address.")
    var email: String

    func run() async throws {
        guard let configId = configId ?? ProcessInfo.processInfo.environment["KEYWAY_CONFIG_ID"], !configId.isEmpty
        else {
            throw ValidationError("Pass --config-id (the dev server prints it at start) or set KEYWAY_CONFIG_ID.")
        }
        guard let url = URL(string: server) else { throw ValidationError("--server is not a URL.") }
        let keyway: Keyway
        do {
            keyway = try Keyway(configId: configId, baseURL: url)
        } catch {
            throw ValidationError(String(describing: error))
        }
        let terminal = Terminal()
        let session = LoginSession(keyway: keyway, terminal: terminal, server: server)
        guard let completed = await session.run(email: email) else { throw ExitCode.failure }
        do {
            let tokens = try await keyway.exchange(authCode: completed.authCode, codeVerifier: completed.codeVerifier)
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
