import Foundation
import Keyway
import KeywayUI

/// Answers the code screen of a sign-in link (a code step that also waits, ``Screen/isWaiting``):
/// the user types the code, or pastes the link (handed to ``KeywayScreenModel/openLink(_:)``),
/// while the SDK polls the flow in case the link is approved on another device — whichever
/// comes first moves the flow on. `resend` and `cancel` are typed as on any code screen.
@MainActor
struct SignInLinkPrompt {
    let model: KeywayScreenModel
    let terminal: Terminal

    /// What ended the wait.
    private enum Event: Sendable {
        case line(String?)
        case flowMoved
    }

    func answer(_ screen: Screen, words: [TypedWord], perform: (TypedWord) async -> Void) async {
        guard let primary = screen.primaryAction, let input = screen.inputs(of: primary).first else {
            return await model.waitForFlow()
        }
        if screen.banner == nil, let expiresAt = screen.countdown(.codeExpires) {
            terminal.status("Waiting for the link to be opened until \(Wording.time(expiresAt))…")
        }
        FileHandle.standardError.write(Data(("Code or link" + TypedWord.hint(words) + ": ").utf8))
        switch await nextEvent() {
        case .flowMoved:
            // Approved (or denied) elsewhere; a line being typed answers the next question.
            terminal.status("")
        case .line(nil):
            terminal.status("No input: cancelling.")
            await model.cancel()
        case .line(let typed?):
            if !terminal.interactive { terminal.status("") }
            let line = typed.trimmingCharacters(in: .whitespaces)
            if let word = TypedWord.typed(line, among: words) { return await perform(word) }
            if let url = Self.link(in: line) { return await model.openLink(url) }
            if let reason = input.validate(line.isEmpty ? nil : line) {
                return terminal.status("  ✕ \(reason)")
            }
            model.values[input.name] = line
            await model.perform(primary)
        }
    }

    /// The line the user types, or the flow moving on by itself, whichever comes first.
    private func nextEvent() async -> Event {
        let read = BackgroundLine.start()
        let (events, sink) = AsyncStream<Event>.makeStream()
        let reading = Task { sink.yield(.line(await read.value())) }
        let model = self.model
        let waiting = Task { @MainActor in
            await model.waitForFlow()
            sink.yield(.flowMoved)
        }
        var iterator = events.makeAsyncIterator()
        let event = await iterator.next() ?? .flowMoved
        reading.cancel()
        waiting.cancel()
        await waiting.value
        if case .line = event { _ = BackgroundLine.take() }
        return event
    }

    /// The URL of a pasted link: an absolute `http`/`https` URL or an app's own scheme.
    static func link(in line: String) -> URL? {
        guard line.contains("://"), let url = URL(string: line), url.scheme != nil else { return nil }
        return url
    }
}
