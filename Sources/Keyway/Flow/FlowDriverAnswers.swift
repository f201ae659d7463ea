import Foundation
import KeywayProtocol

/// The typed answers to the prompts. Each checks locally that the current step offers its action
/// (and what it can of the input) and emits a local error before any request otherwise.
extension FlowDriver {
    func selectMethod(id: String) async {
        guard let step = stepOffering(.selectMethod) else { return }
        if let methods = step.payload.selectMethod?.methods, !methods.contains(where: { $0.id == id }) {
            emitLocalError(
                .invalidRequest, action: .retryInput, message: "Choose one of the methods offered.",
                field: InvalidField(name: "methodId", reason: "Not one of the methods offered."))
            return
        }
        await perform(.selectMethod, parameters: ["methodId": id])
    }

    func skip() async {
        guard stepOffering(.skip) != nil else { return }
        await perform(.skip, parameters: [:])
    }

    func useAnotherMethod() async {
        guard stepOffering(.anotherMethod) != nil else { return }
        await perform(.anotherMethod, parameters: [:])
    }

    func submitForm(_ values: [String: String]) async {
        guard let step = stepOffering(.submitForm), let action = step.action(named: FlowAction.submitForm.name)
        else { return }
        let validation = action.validate(values)
        if let first = validation.invalidFields.first {
            let field = action.fields.first { $0.name == first.name }
            emitLocalError(
                .invalidRequest, action: .retryInput, message: "\(field?.label ?? first.name): \(first.reason)",
                fields: validation.invalidFields)
            return
        }
        await perform(action: action, parameters: validation.values)
    }

    func perform(operation name: String) async {
        guard name != FlowAction.cancel.name else {
            await cancel()
            return
        }
        guard stepOffering(.named(name)) != nil else { return }
        await perform(.named(name), parameters: [:])
    }

    /// The current step when it offers the action `name`; otherwise emits the local error
    /// (`no_active_flow` or `action_unavailable`) and returns `nil`.
    func stepOffering(_ action: FlowAction) -> Step? {
        guard let step else {
            emitLocalError(.noActiveFlow, action: .restartFlow, message: "There is no sign-in in progress. Start one first.")
            return nil
        }
        guard step.action(named: action.name) != nil else {
            emitLocalError(.actionUnavailable, action: .abort, message: action.unavailableMessage)
            return nil
        }
        return step
    }
}
