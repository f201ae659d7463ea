import KeywayUI

/// An action of a screen the user types as a word at any question of it, rather than choosing it
/// by number: `resend`, `s` (skip), `f` (forgot password), `m` (another method), `cancel`.
struct TypedWord {
    enum Meaning {
        /// Ask for a new code (the screen's resend action).
        case resend(ScreenAction)
        /// Skip the step (the screen's skip action).
        case skip(ScreenAction)
        /// Go back to the choice of method (the screen's "Use another method").
        case anotherMethod(ScreenAction)
        /// Reset a forgotten password with a code (the screen's "Forgot password?").
        case forgotPassword(ScreenAction)
        /// Leave the flow: always there, whether the step offers a cancel action or not.
        case cancel
    }

    let meaning: Meaning
    /// What the user may type (any case).
    let spellings: [String]
    /// How a question mentions it (`'s' to skip`).
    let hint: String

    /// The words of `screen`: its resend, skip, forgot-password and another-method actions, then
    /// cancel.
    static func words(of screen: Screen) -> [TypedWord] {
        var words: [TypedWord] = screen.secondaryActions.compactMap { action in
            switch action.id {
            case "resend": TypedWord(meaning: .resend(action), spellings: ["resend"], hint: "'resend'")
            case "skip": TypedWord(meaning: .skip(action), spellings: ["s", "skip"], hint: "'s' to skip")
            case "forgotPassword":
                TypedWord(meaning: .forgotPassword(action), spellings: ["f", "forgot"], hint: "'f' if you forgot it")
            case "anotherMethod":
                TypedWord(meaning: .anotherMethod(action), spellings: ["m", "method"], hint: "'m' for another method")
            default: nil
            }
        }
        words.append(TypedWord(meaning: .cancel, spellings: ["cancel"], hint: "'cancel'"))
        return words
    }

    /// Whether the word cancels the flow.
    var isCancel: Bool {
        if case .cancel = meaning { return true }
        return false
    }

    /// Whether `action` is one of the screen's words, so not a numbered choice.
    static func isWord(_ action: ScreenAction) -> Bool {
        action.role == .cancel || ["resend", "skip", "forgotPassword", "anotherMethod"].contains(action.id)
    }

    /// The word the user typed in `line`, if any.
    static func typed(_ line: String, among words: [TypedWord]) -> TypedWord? {
        let typed = line.lowercased()
        return words.first { $0.spellings.contains(typed) }
    }

    /// How a question lists `words`: ` ('resend' or 'cancel')`, ` ('s' to skip, 'cancel')`, or
    /// nothing without words.
    static func hint(_ words: [TypedWord]) -> String {
        let hints = words.map(\.hint)
        if hints.isEmpty { return "" }
        if hints.count == 2, !hints.contains(where: { $0.contains(" ") }) { return " (\(hints[0]) or \(hints[1]))" }
        return " (" + hints.joined(separator: ", ") + ")"
    }
}
