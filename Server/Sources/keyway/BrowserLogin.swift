import Foundation
import Keyway
import KeywayLoopback

/// `keyway login --browser`: signs in through the server's pages in the system browser, the
/// redirect coming back to a loopback listener, and keeps the session as a terminal sign-in does.
enum BrowserLogin {
    /// The redirect URI the CLI's application registers: any port of this loopback URI matches.
    static let registeredRedirectURI = "http://127.0.0.1/callback"

    /// Runs the sign-in; `nil` (after saying why on standard error) when it did not complete.
    static func run(
        keyway: KeywayClient, terminal: Terminal, options: Options
    ) async -> TokenSet? {
        let listener: LoopbackListener
        do {
            listener = try LoopbackListener(path: "/callback")
        } catch {
            terminal.status("Error: cannot listen on 127.0.0.1 for the browser's answer: \(error)")
            return nil
        }
        defer { listener.close() }
        let browser = LoopbackBrowserSession(
            listener: listener, openBrowser: options.openBrowser, timeout: .seconds(options.timeoutSeconds),
            terminal: terminal)
        var signIn = BrowserSignInOptions(redirectURI: listener.redirectURI, loginHint: options.loginHint)
        if let scope = options.scope { signIn.scope = scope }
        do {
            return try await keyway.browser.signIn(using: browser, options: signIn)
        } catch let error as BrowserSignInError {
            terminal.status(message(for: error))
        } catch let error as KeywayError {
            terminal.status("Error: \(error.description)")
        } catch {
            terminal.status("Error: \(error)")
        }
        return nil
    }

    /// What the browser sign-in asks for.
    struct Options {
        var openBrowser = true
        var timeoutSeconds = 300
        var scope: String?
        var loginHint: String?
    }

    /// The sentence for a failed browser sign-in: the server's error code and description
    /// first, when it sent one.
    static func message(for error: BrowserSignInError) -> String {
        switch error {
        case .authorizationFailed(let code, let description, let uri):
            var text = "Error: the server refused the sign-in: \(code)"
            if let description { text += " — \(description)" }
            if let uri { text += " (\(uri))" }
            return text
        case .cancelled:
            return "Sign-in cancelled."
        default:
            return "Error: \(error.description)"
        }
    }
}
