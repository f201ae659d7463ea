import Foundation
import Keyway
import KeywayUI

/// The CLI's own wording of screens: the question of each kind of input, headings, secrets and
/// times.
enum Wording {
    /// The question that asks `input` on a screen of `kind`, with the words it also takes:
    /// `Enter the 6-digit code ('resend' or 'cancel'): `, `Plan (optional): `. The question itself
    /// is the screen's (``ScreenInput/question(on:)``), the same words in every renderer; the
    /// terminal adds how to answer it.
    static func question(for input: ScreenInput, on kind: Screen.Kind, words: [TypedWord]) -> String {
        // Words are mentioned where there is more than cancel to type, and at every code.
        let isCode: Bool = if case .code = input.kind { true } else { false }
        let hint = isCode || words.count > 1 ? TypedWord.hint(words) : ""
        let question = input.question(on: kind)
        switch input.kind {
        case .phone where kind == .step(.setupSms):
            let keep = input.initialValue.map { !$0.isEmpty } ?? false ? ", or Enter to keep it" : ""
            return "\(question)\(keep)\(hint): "
        case .choice(let options) where !options.isEmpty:
            return "\(choose(among: options.count))\(hint): "
        case .toggle:
            return "\(question) (y/n)\(hint): "
        case .text, .email, .phone, .other:
            let example = input.placeholder.map { " [\($0)]" } ?? ""
            return "\(question)\(example)\(hint): "
        default:
            return "\(question)\(hint): "
        }
    }

    /// An input's label, marked when it may be left empty.
    /// The question of a numbered menu of `count` items: `Choose 1-3`, or `Choose 1` for one.
    static func choose(among count: Int) -> String {
        count == 1 ? "Choose 1" : "Choose 1-\(count)"
    }

    static func label(of input: ScreenInput) -> String {
        input.label + (input.isRequired ? "" : " (optional)")
    }

    /// An instruction as the heading of a menu: `Choose a second factor:`.
    static func heading(_ instruction: String) -> String {
        guard let last = instruction.last, !".:?!".contains(last) else { return instruction }
        return instruction + ":"
    }

    /// What a screen is called in an error about it: its step kind.
    static func name(of kind: Screen.Kind) -> String {
        if case .step(let step) = kind { return step.rawValue }
        return "\(kind)"
    }

    /// `ABCDEFGHIJ` → `ABCD EFGH IJ`.
    static func grouped(_ secret: String) -> String {
        var groups: [String] = []
        var rest = Substring(secret)
        while !rest.isEmpty {
            groups.append(String(rest.prefix(4)))
            rest = rest.dropFirst(4)
        }
        return groups.joined(separator: " ")
    }

    /// A time of today: `14:02:10`.
    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }
}
