import Foundation
import Keyway
import KeywayProtocol

/// Renders any step from its hypermedia alone: lists its actions, asks for each field, submits.
struct GenericStepRenderer {
    let flow: KeywayFlow
    let terminal: Terminal
    /// Reasons the server gave for bad fields, by name.
    var fieldErrors: [String: String] = [:]

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
        guard let values = FieldReader(terminal: terminal).values(for: action.fields, errors: fieldErrors) else {
            await flow.cancel()
            return false
        }
        let parameters = action.validate(values).values
        await flow.submit(action: action, parameters: parameters)
        return true
    }
}
