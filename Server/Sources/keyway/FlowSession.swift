import Foundation
import Keyway
import KeywaySoftwarePasskeys
import KeywayProtocol
import KeywayUI

/// Drives a flow in the terminal through the SDK's screen model: prints each screen, reads the
/// user's answers into it and performs its actions, until the flow ends.
@MainActor
final class FlowSession {
    /// How a flow ended.
    enum Outcome: Sendable {
        /// It completed; its code was redeemed and the tokens saved in the stored session.
        case signedIn(TokenSet)
        /// The user finished an account-management flow, or a guest chose to stay one: the flow
        /// ended without a code.
        case finished
        /// It failed or was cancelled (already reported).
        case failed
    }

    let model: KeywayScreenModel
    let terminal: Terminal
    let printer: ScreenPrinter
    /// The last screen answered, so that one shown again unchanged is not printed twice.
    private var lastScreen: Screen?
    /// The top of the last step screen printed (its title, messages and displays).
    private var printedHeader: Screen?
    /// How the browser's return from another provider is caught.
    let redirect: ProviderRedirect

    /// Whether the terminal was told the passkeys are software ones.
    private var passkeyNoted = false
    /// Where the software passkeys are kept, said once when a passkey screen shows.
    let passkeyStore: String?

    init(
        keyway: KeywayClient, stored: KeywaySession, terminal: Terminal, server: String, redirect: ProviderRedirect,
        passkeys: SoftwarePasskeyAuthenticator?, passkeyStore: String?
    ) {
        // The terminal's own words are English: so are the screens' (whatever the system's language).
        model = KeywayScreenModel(keyway: keyway, passkeyAuthenticator: passkeys, language: .english)
        self.passkeyStore = passkeyStore
        self.terminal = terminal
        self.redirect = redirect
        printer = ScreenPrinter(terminal: terminal, server: server)
    }

    /// Runs a flow in the terminal: `start` starts it on the model (and returns `false`, having
    /// said why, when it could not), then every screen is answered until the flow ends. A
    /// `redirect` step (sign in with another provider) is followed with `redirect`: without a
    /// listener, the address the browser came back to is asked for.
    ///
    /// `passkeys` answers the passkey screens: the CLI's software authenticator, its passkeys in
    /// `passkeyStore` (the state folder).
    static func run(
        keyway: KeywayClient, stored: KeywaySession, terminal: Terminal, server: String,
        redirect: ProviderRedirect = ProviderRedirect(), passkeys: SoftwarePasskeyAuthenticator? = nil,
        passkeyStore: String? = nil, start: @MainActor (KeywayScreenModel) async -> Bool
    ) async -> Outcome {
        let session = FlowSession(
            keyway: keyway, stored: stored, terminal: terminal, server: server, redirect: redirect, passkeys: passkeys,
            passkeyStore: passkeyStore)
        guard await start(session.model) else { return .failed }
        return await session.run()
    }

    /// Answers screens until the flow is over.
    private func run() async -> Outcome {
        while true {
            let screen = model.screen
            switch screen.kind {
            case .step:
                if screen != lastScreen {
                    if let banner = screen.banner {
                        printer.report(banner)
                        guard Self.asksAgain(after: banner) else { return .failed }
                    } else if Self.header(of: screen) != printedHeader {
                        printer.printHeader(screen)
                        printedHeader = Self.header(of: screen)
                    }
                }
                lastScreen = screen
                if !passkeyNoted, screen.kind == .step(.passkeyRegister) || screen.kind == .step(.passkeyAuthenticate) {
                    passkeyNoted = true
                    terminal.status(
                        "Passkeys here are software keys kept encrypted in \(passkeyStore ?? "the state folder") (a key in a file, not a hardware key).")
                }
                if let browser = screen.browser {
                    guard await redirect.follow(browser, model: model, terminal: terminal) else {
                        await model.cancel()
                        return .failed
                    }
                    continue
                }
                await ScreenPrompt(model: model, terminal: terminal).answer(screen)
            case .completed:
                printer.printMessages(screen.messages.filter { $0.level != .info })
                guard let tokens = model.tokens else {
                    terminal.status("Error: the flow completed without a code this CLI could redeem.")
                    return .failed
                }
                return .signedIn(tokens)
            case .finished:
                // A guest who chose to stay one hears so; an account's flow is just done.
                terminal.status(screen.messages.first { $0.code == "stayedGuest" }?.text ?? "Done.")
                return .finished
            case .idle, .loading, .ended:
                if let banner = screen.banner {
                    printer.report(banner)
                } else {
                    terminal.status("Cancelled.")
                }
                return .failed
            }
        }
    }

    /// Whether the flow goes on with the same screen after `banner`: a wrong answer, an expired
    /// code to resend, another method to choose. Any other error (waiting, the network, a flow
    /// to start over) ends the run.
    static func asksAgain(after banner: Banner) -> Bool {
        [.retryInput, .resendCode, .selectMethod].contains(banner.action)
    }

    /// What a screen shows above its questions: printed once per step, not again with an error
    /// (nor with the note of a resend that came too early, said as the seconds to wait).
    private static func header(of screen: Screen) -> Screen {
        var header = screen
        header.messages.removeAll { $0.code == ScreenPrompt.resendCooldown }
        header.banner = nil
        header.isLoading = false
        for index in header.inputs.indices { header.inputs[index].error = nil }
        return header
    }
}
