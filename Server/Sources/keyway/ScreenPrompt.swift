import Foundation
import Keyway
import KeywayUI

/// Answers one step screen in the terminal, through the screen model:
/// - a screen whose primary action sends inputs, and whose other actions are words (resend, skip,
///   cancel), asks its inputs one by one and performs the primary action;
/// - any other one lists its actions as a numbered menu under its instruction (the words are typed
///   instead), then asks the inputs of the chosen action;
/// - a screen that waits for the flow (an approval) says how to approve and waits;
/// - the code screen of a sign-in link takes the code or the pasted link while it waits.
///
/// Typing `cancel`, or the end of input, cancels the flow.
@MainActor
struct ScreenPrompt {
    let model: KeywayScreenModel
    let terminal: Terminal

    func answer(_ screen: Screen) async {
        let words = TypedWord.words(of: screen)
        if screen.isWaiting, screen.kind == .step(.enterCode) {
            // A sign-in link: the code or the link typed here, or the link approved elsewhere.
            return await SignInLinkPrompt(model: model, terminal: terminal).answer(screen, words: words) { word in
                await perform(word)
            }
        }
        if screen.isWaiting { return await wait(on: screen) }
        // The CLI is the authenticator: a passkey's signature needs nothing typed. After a refusal
        // (no passkey here, or one the server refused) the same key would only fail again: stop.
        if screen.kind == .step(.passkeyAuthenticate), let primary = screen.primaryAction,
            primary.actionName == "authenticatePasskey"
        {
            if screen.banner != nil { return await model.cancel() }
            return await model.perform(primary)
        }
        if let primary = screen.primaryAction, !screen.inputs(of: primary).isEmpty,
            screen.secondaryActions.allSatisfy(TypedWord.isWord)
        {
            await fill(screen, for: primary, words: words)
        } else {
            await choose(on: screen, words: words)
        }
    }

    /// Asks the inputs `action` sends, one by one (the first also takes `words`), and performs it.
    private func fill(_ screen: Screen, for action: ScreenAction, words: [TypedWord]) async {
        let reader = InputReader(terminal: terminal, screenKind: screen.kind)
        for (index, input) in screen.inputs(of: action).enumerated() {
            switch reader.read(input, words: index == 0 ? words : words.filter(\.isCancel)) {
            case .value(let value):
                model.values[input.name] = value
            case .word(let word):
                return await perform(word)
            case .endOfInput:
                return await endOfInput()
            }
        }
        await model.perform(action)
    }

    /// The numbered menu of the screen's actions; the chosen one's inputs are asked next.
    private func choose(on screen: Screen, words: [TypedWord]) async {
        let items = Self.menu(of: screen)
        guard !items.isEmpty || words.count > 1 else {
            terminal.status("Error: this step (\(Wording.name(of: screen.kind))) offers nothing to do.")
            return await model.cancel()
        }
        if let instruction = screen.instruction { terminal.status(Wording.heading(instruction)) }
        for (index, item) in items.enumerated() { terminal.status("  \(index + 1). \(item.label)") }
        let question = (items.isEmpty ? "" : Wording.choose(among: items.count)) + TypedWord.hint(words)
        while true {
            guard let line = terminal.ask(question.trimmingCharacters(in: .whitespaces) + ": ") else {
                return await endOfInput()
            }
            if let word = TypedWord.typed(line, among: words) { return await perform(word) }
            if let choice = Int(line), items.indices.contains(choice - 1) {
                let item = items[choice - 1]
                guard screen.inputs(of: item).isEmpty else {
                    return await fill(screen, for: item, words: words.filter(\.isCancel))
                }
                return await model.perform(item)
            }
            if !line.isEmpty { terminal.status(items.count == 1 ? "Type 1." : "Type a number from 1 to \(items.count).") }
        }
    }

    /// Shows how to approve on a trusted device, then waits until the flow moves on.
    private func wait(on screen: Screen) async {
        terminal.status("On a trusted machine: keyway approve, or keyway approve --qr DATA.")
        if let expiresAt = screen.countdown(.approvalExpires) {
            terminal.status("Waiting until \(Wording.time(expiresAt))…")
        }
        await model.waitForFlow()
    }

    private func perform(_ word: TypedWord) async {
        switch word.meaning {
        case .cancel:
            await model.cancel()
        case .skip(let action), .anotherMethod(let action), .forgotPassword(let action):
            await model.perform(action)
        case .resend(let action):
            if let availableAt = action.availableAt, availableAt > Date() { return sayWait(until: availableAt) }
            await model.perform(action)
            // The server's own cooldown: the same screen, saying it was too early.
            if model.screen.messages.last?.code == Self.resendCooldown {
                sayWait(until: model.screen.countdown(.resendAvailable) ?? action.availableAt ?? Date())
            }
        }
    }

    /// The model's message after a resend the server found too early, said here as the seconds
    /// to wait.
    static let resendCooldown = "resendCooldown"

    private func sayWait(until date: Date) {
        // Clamped before the conversion: a server's time far off cannot trap here.
        let wait = Int(min(max(1, date.timeIntervalSinceNow.rounded(.up)), 86_400))
        terminal.status("You can ask for a new code in \(wait) second\(wait == 1 ? "" : "s").")
    }

    private func endOfInput() async {
        terminal.status("No input: cancelling.")
        await model.cancel()
    }

    /// The actions chosen by number: the secondary ones that are not words, with the primary one
    /// first when it sends inputs (a step drawn from its actions) and last when it does not (an
    /// account's `Done`).
    static func menu(of screen: Screen) -> [ScreenAction] {
        let others = screen.secondaryActions.filter { !TypedWord.isWord($0) }
        guard let primary = screen.primaryAction else { return others }
        return primary.submitsInputs ? [primary] + others : others + [primary]
    }
}
