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

    /// The page the browser shows after the redirect: done, or the server's error code. It says
    /// once that the window can be closed, in a card that follows the system's light or dark look.
    @Sendable static func page(for callback: URL) -> String {
        let items = URLComponents(url: callback, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let error = items.first { $0.name == "error" }?.value
        let (title, text, mark, tone): (String, String, String, String)
        if let error {
            title = "Sign-in not completed"
            text = "The server answered \(escaped(error)). You can close this window; the terminal says what to do next."
            (mark, tone) = ("!", "#b42318")
        } else {
            title = "Signed in"
            text = "You can close this window and return to the terminal."
            (mark, tone) = ("✓", "#0f766e")
        }
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>\(title) – Keyway</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark">
            <style>
            body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 1rem; box-sizing: border-box;
              font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: #f4f5f7; color: #1d2433; }
            main { max-width: 26rem; width: 100%; padding: 2rem; border-radius: 14px; background: #fff; text-align: center;
              box-shadow: 0 1px 3px rgba(16, 24, 40, .12), 0 8px 24px rgba(16, 24, 40, .08); }
            .mark { width: 3rem; height: 3rem; margin: 0 auto 1rem; border-radius: 50%; display: grid; place-items: center;
              font-size: 1.5rem; font-weight: 700; color: #fff; background: \(tone); }
            h1 { margin: 0 0 .5rem; font-size: 1.375rem; } p { margin: 0; color: #4b5565; }
            @media (prefers-color-scheme: dark) { body { background: #111318; color: #e6e8ee; }
              main { background: #1b1e26; box-shadow: none; } p { color: #a9b0bd; } }
            </style></head>
            <body><main><div class="mark" aria-hidden="true">\(mark)</div><h1>\(title)</h1><p>\(text)</p>
            <p class="brand" style="margin-top:1.5rem;font-size:.875rem">Keyway CLI</p></main></body></html>
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
