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

            With --browser the sign-in runs on the server's pages in your browser instead (OpenID \
            Connect with PKCE): the CLI listens on 127.0.0.1 on a port the system picks, prints the \
            authorization URL and opens it (xdg-open or open, unless --no-open), and waits for the \
            browser to come back (--timeout seconds). The application must register the redirect URI \
            http://127.0.0.1/callback (any port matches). With KEYWAY_PRINT_AUTHORIZATION_URL=1 the \
            URL is also printed on standard output, on a line of its own after "keyway-authorization-url: ".

            Passkeys: the CLI is a software authenticator. The passkeys it makes (when a sign-up, an \
            offer after a sign-in or 'keyway account' asks for one) are kept encrypted in the state \
            folder (passkeys.key, passkeys.kwstore): keys in a file, not hardware. With --passkey the \
            sign-in uses one of them without an identifier; the server names the account.
            """)

    @OptionGroup var options: ClientOptions
    @OptionGroup var flowOptions: FlowOptions

    @Flag(help: "Sign in through the server's pages in your browser; the browser comes back to this machine on 127.0.0.1.")
    var browser = false

    @Flag(name: .customLong("no-open"), help: "With --browser: print the URL without opening a browser.")
    var noOpen = false

    @Option(help: "With --browser: how many seconds to wait for the browser.")
    var timeout = 300

    @Option(help: "With --browser: the scopes to ask for, space separated (default: openid email offline_access).")
    var scope: String?

    @Flag(help: "Sign in with a passkey of this machine (the CLI's software passkeys), without typing an identifier.")
    var passkey = false

    @Argument(help: "Your email address or phone number (+14155550123); with --browser, optional: filled in on the page.")
    var identifier: String?

    func validate() throws {
        if passkey, browser || identifier != nil {
            throw ValidationError("--passkey signs in without an identifier, and not with --browser.")
        }
        if !browser, !passkey, identifier == nil {
            throw ValidationError("Give your email address or phone number, or use --passkey or --browser.")
        }
        if !browser, noOpen || scope != nil { throw ValidationError("--no-open and --scope go with --browser.") }
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout is 1 to 3600 seconds.") }
    }

    func run() async throws {
        let keyway = try options.makeKeyway(primaryMethodSelectionPolicy: flowOptions.selectMethod.policy)
        let stored = keyway.session
        let terminal = Terminal()
        if browser {
            let login = BrowserLogin.Options(openBrowser: !noOpen, timeoutSeconds: timeout, scope: scope, loginHint: identifier)
            guard let tokens = await BrowserLogin.run(keyway: keyway, terminal: terminal, options: login)
            else { throw ExitCode.failure }
            try SignInResult.show(tokens, terminal: terminal, json: flowOptions.json)
            options.rememberServer()
            return
        }
        let identifier = identifier ?? ""
        let redirect = try ProviderRedirect(options: flowOptions)
        defer { redirect.close() }
        let passkeys = try options.makePasskeyAuthenticator()
        let withPasskey = passkey
        let outcome = await FlowSession.run(
            keyway: keyway, stored: stored, terminal: terminal, server: options.server, redirect: redirect,
            passkeys: passkeys, passkeyStore: options.stateDirectory
        ) {
            if withPasskey {
                await $0.startPasskeySignIn(options: redirect.startOptions)
            } else {
                await $0.start(identifier: identifier, flowType: .signin, options: redirect.startOptions)
            }
            return true
        }
        guard case .signedIn(let tokens) = outcome else { throw ExitCode.failure }
        try SignInResult.show(tokens, terminal: terminal, json: flowOptions.json)
        options.rememberServer()
    }
}
