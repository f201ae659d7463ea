import Foundation
import Keyway
import KeywayLoopback

/// The CLI's ``BrowserSession``: prints the authorization URL, opens it in the system browser
/// (unless told not to), and waits for the browser's redirect on a loopback listener (RFC 8252
/// §7.3), which answers it with a page saying the window can be closed.
struct LoopbackBrowserSession: BrowserSession {
    /// The stable prefix of the line that carries the authorization URL on standard output when
    /// `KEYWAY_PRINT_AUTHORIZATION_URL=1` (for scripts and tests that play the browser).
    static let urlMarker = "keyway-authorization-url:"
    /// The environment variable that asks for that line.
    static let urlVariable = "KEYWAY_PRINT_AUTHORIZATION_URL"

    let listener: LoopbackListener
    let openBrowser: Bool
    let timeout: Duration
    let terminal: Terminal

    func authorize(url: URL, callbackURL: URL) async throws -> URL {
        terminal.status("Open this URL in your browser to sign in:")
        terminal.status("  \(url.absoluteString)")
        if ProcessInfo.processInfo.environment[Self.urlVariable] == "1" {
            terminal.output("\(Self.urlMarker) \(url.absoluteString)")
        }
        if openBrowser, BrowserOpener.open(url) {
            terminal.status("(Opened with \(BrowserOpener.command).)")
        }
        terminal.status("Waiting for the browser on \(listener.redirectURI.absoluteString)…")
        do {
            return try await listener.waitForCallback(timeout: timeout, page: Self.page)
        } catch LoopbackListenerError.cancelled {
            throw BrowserSignInError.cancelled
        } catch let error as LoopbackListenerError {
            throw BrowserSignInError.browserFailed(error.description)
        }
    }

    /// The page the browser shows after the redirect: done, or the server's error code.
    @Sendable static func page(for callback: URL) -> String {
        let items = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let error = items.first { $0.name == "error" }?.value
        let (title, text): (String, String)
        if let error {
            title = "Sign-in not completed"
            text = "The server answered \(escaped(error)). Return to the terminal for details."
        } else {
            title = "Signed in"
            text = "You can close this window and return to the terminal."
        }
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(title) – Keyway</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 4rem auto; padding: 0 1rem">
            <h1>\(title)</h1><p>\(text)</p><p>You can close this window.</p></body></html>
            """
    }

    /// `text` with the HTML-significant characters escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
