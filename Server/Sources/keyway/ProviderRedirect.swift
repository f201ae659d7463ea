import Foundation
import Keyway
import KeywayLoopback
import KeywayUI

/// Signing in with another provider (a `redirect` step) from the terminal: prints the provider's
/// URL (and opens it with `xdg-open` or `open` when asked), catches the browser's return on a
/// loopback listener — bound before the flow starts, so that the flow carries its redirect URI
/// `http://127.0.0.1:PORT/callback` — or, without one, asks for the address the browser came
/// back to, then hands it to the flow.
struct ProviderRedirect: Sendable {
    /// The listener for the browser's return, when the flow carries a loopback redirect URI.
    let listener: LoopbackListener?
    /// Whether the URL is opened in the system browser (`--open`).
    let openBrowser: Bool
    /// How long the listener waits for the browser.
    let timeout: Duration

    /// No listener: the address the browser came back to is asked for.
    init() {
        listener = nil
        openBrowser = false
        timeout = .seconds(300)
    }

    /// The redirect of a flow run with `options`: a listener on 127.0.0.1 with `--loopback`.
    ///
    /// - Throws: ``LoopbackListenerError`` when the listener cannot be bound.
    init(options: FlowOptions) throws {
        listener = options.loopback ? try LoopbackListener(path: "/callback") : nil
        openBrowser = options.open
        timeout = .seconds(options.redirectTimeout)
    }

    /// The start options of the flow: its redirect URI is the listener's, when there is one.
    var startOptions: FlowStartOptions {
        FlowStartOptions(redirectURI: listener?.redirectURI)
    }

    /// Closes the listener.
    func close() { listener?.close() }

    /// Sends the user to `browser`'s page and hands the return to the model. Returns `false`
    /// (having said why) when no return came: the listener failed or timed out, or the input
    /// ended.
    @MainActor
    func follow(_ browser: ScreenBrowser, model: KeywayScreenModel, terminal: Terminal) async -> Bool {
        terminal.status("Open this URL in your browser to sign in (\(browser.provider.label)):")
        terminal.status("  \(browser.url.absoluteString)")
        if ProcessInfo.processInfo.environment[LoopbackBrowserSession.urlVariable] == "1" {
            terminal.output("\(LoopbackBrowserSession.urlMarker) \(browser.url.absoluteString)")
        }
        if openBrowser, BrowserOpener.open(browser.url) {
            terminal.status("(Opened with \(BrowserOpener.command).)")
        }
        let callback: URL
        if let listener {
            terminal.status("Waiting for the browser on \(listener.redirectURI.absoluteString)…")
            do {
                callback = try await listener.waitForCallback(timeout: timeout, page: LoopbackBrowserSession.page)
            } catch {
                terminal.status("Error: the browser did not come back: \(error)")
                return false
            }
        } else {
            guard let typed = terminal.ask("Paste the address your browser came back to (\(browser.returnScheme):…): "),
                !typed.isEmpty
            else { return false }
            guard let url = URL(string: typed) else {
                terminal.status("Error: that is not a URL.")
                return true
            }
            callback = url
        }
        await model.oauthCallback(url: callback)
        return true
    }
}
