import Foundation
import Keyway
import KeywayProtocol

/// Asks for the fields of an action, each by its kind: a `select` as a numbered list, a
/// `checkbox` as y/n, a `password` without echo, `hidden` not at all. Each answer is checked
/// with the SDK's field rules and asked again until it passes (so required fields are asked
/// again when left empty). A reason the server gave for a field is shown next to it.
struct FieldReader {
    let terminal: Terminal

    /// The values by field name; `nil` at end of input or when the user types `cancel`.
    func values(for fields: [Field], errors: [String: String] = [:]) -> [String: String]? {
        var values: [String: String] = [:]
        for field in fields where field.type != .hidden {
            guard let value = read(field, error: errors[field.name]) else { return nil }
            if let value { values[field.name] = value }
        }
        return values
    }

    /// One field's value (`.some(nil)` for an optional field left empty), or `nil` to stop.
    private func read(_ field: Field, error: String?) -> String?? {
        let label = (field.label ?? field.name) + (field.required ? "" : " (optional)")
        if let error { terminal.status("  ✕ \(label): \(error)") }
        if field.type == .select, let options = field.options, !options.isEmpty {
            terminal.status("\(label):")
            for (index, option) in options.enumerated() { terminal.status("  \(index + 1). \(option.label)") }
        }
        while true {
            let line: String?
            switch field.type {
            case .password:
                line = terminal.askSecret("\(label): ")
            case .checkbox:
                line = terminal.ask("\(label) (y/n): ")
            case .select where !(field.options ?? []).isEmpty:
                line = terminal.ask("Choose 1-\(field.options?.count ?? 0): ")
            default:
                let hint = field.placeholder.map { " [\($0)]" } ?? ""
                line = terminal.ask("\(label)\(hint): ")
            }
            guard let line, line.lowercased() != "cancel" else { return nil }
            let value = Self.value(of: line, for: field)
            if let problem = field.validate(value) {
                terminal.status("  ✕ \(problem.reason)")
                continue
            }
            return .some(value)
        }
    }

    /// What the user typed, as the field's value: an option's number picks the option; an empty
    /// answer leaves the field to its default.
    private static func value(of line: String, for field: Field) -> String? {
        if line.isEmpty { return nil }
        if field.type == .select, let options = field.options, let index = Int(line), options.indices.contains(index - 1) {
            return options[index - 1].value
        }
        return line
    }
}
