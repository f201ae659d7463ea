import Foundation
import Keyway
import KeywayProtocol

/// Renders any step from its hypermedia alone: lists its actions, asks for each field, submits.
struct GenericStepRenderer {
    let flow: KeywayFlow
    let terminal: Terminal

    func answer(_ step: Step) async -> Bool {
        let actions = step.actions
        guard !actions.isEmpty else {
            terminal.status("This step (\(step.kind.rawValue)) offers no actions.")
            return false
        }
        for (index, action) in actions.enumerated() {
            terminal.status("  \(index + 1). \(action.label ?? action.name)")
        }
        guard let choiceText = terminal.ask("Choose 1-\(actions.count): "), let choice = Int(choiceText),
            actions.indices.contains(choice - 1)
        else {
            terminal.status("No valid choice: cancelling.")
            await flow.cancel()
            return false
        }
        let action = actions[choice - 1]
        var parameters: [String: String] = [:]
        for field in action.fields where field.type != .hidden {
            var question = field.label ?? field.name
            if let options = field.options {
                question += " (" + options.map(\.value).joined(separator: ", ") + ")"
            }
            if field.type == .checkbox { question += " (yes/no)" }
            guard let value = terminal.ask("\(question): ") else { return false }
            parameters[field.name] = field.type == .checkbox ? String(["y", "yes", "true"].contains(value.lowercased())) : value
        }
        await flow.submit(action: action, parameters: parameters)
        return true
    }
}
