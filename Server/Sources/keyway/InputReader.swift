import Foundation
import KeywayUI

/// Reads one input of a screen, by its kind: a choice as a numbered list, a toggle as y/n, a
/// password without echo (a new one typed twice at a terminal), anything else as a line. Each
/// answer is checked with the input's own rules and asked again until it passes; the reason the
/// server gave for the last value is shown first.
struct InputReader {
    /// What the user answered.
    enum Answer {
        /// The input's value (`nil`: left empty, so its initial value or nothing).
        case value(String?)
        /// A word instead of a value (`resend`, `cancel`).
        case word(TypedWord)
        /// Standard input ended.
        case endOfInput
    }

    let terminal: Terminal
    /// The screen the input is on, for the wording of its question.
    let screenKind: Screen.Kind

    /// Asks `input` until its answer passes; the first question also takes `words`, but a
    /// secret's (a password may be any word): there, Enter alone asks for the word instead, when
    /// there is more than `cancel` to type ('m' for another method).
    func read(_ input: ScreenInput, words: [TypedWord]) -> Answer {
        let secret = Self.isSecret(input)
        let wordsAfterEnter = secret && words.contains(where: { !$0.isCancel }) ? words : []
        let words = secret ? [] : words
        let label = Wording.label(of: input)
        if let error = input.error { terminal.status("  ✕ \(label): \(error)") }
        if case .choice(let options) = input.kind, !options.isEmpty {
            terminal.status("\(label):")
            for (index, option) in options.enumerated() { terminal.status("  \(index + 1). \(option.label)") }
        }
        var question = Wording.question(for: input, on: screenKind, words: words)
        if !wordsAfterEnter.isEmpty, question.hasSuffix(": ") {
            question = question.dropLast(2) + " (Enter alone for other choices): "
        }
        while true {
            guard let line = secret ? terminal.askSecret(question) : terminal.ask(question) else { return .endOfInput }
            if let word = TypedWord.typed(line, among: words) { return .word(word) }
            if line.isEmpty, !wordsAfterEnter.isEmpty {
                let choices = TypedWord.hint(wordsAfterEnter).trimmingCharacters(in: CharacterSet(charactersIn: " ()"))
                guard let typed = terminal.ask("Type \(choices), or Enter to type it: ") else { return .endOfInput }
                if let word = TypedWord.typed(typed, among: wordsAfterEnter) { return .word(word) }
                continue
            }
            let value = Self.value(of: line, for: input)
            if let reason = input.validate(value ?? input.initialValue) {
                terminal.status("  ✕ \(reason)")
                continue
            }
            if case .newPassword = input.kind, terminal.interactive, let value {
                guard let again = terminal.askSecret("Type it again: ") else { return .endOfInput }
                guard again == value else {
                    terminal.status("  ✕ The two passwords differ.")
                    continue
                }
            }
            return .value(value)
        }
    }

    private static func isSecret(_ input: ScreenInput) -> Bool {
        switch input.kind {
        case .password, .newPassword: true
        default: false
        }
    }

    /// What the user typed, as the input's value: an option's number picks the option; an empty
    /// answer leaves the input to its initial value.
    private static func value(of line: String, for input: ScreenInput) -> String? {
        if line.isEmpty { return nil }
        if case .choice(let options) = input.kind, let index = Int(line), options.indices.contains(index - 1) {
            return options[index - 1].value
        }
        return line
    }
}
