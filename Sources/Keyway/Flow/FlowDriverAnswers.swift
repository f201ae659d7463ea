import Foundation
import KeywayProtocol

/// The typed answers to the prompts. Each checks locally that the current step offers its action
/// (and what it can of the input) and emits a local error before any request otherwise.
extension FlowDriver {
    func selectMethod(id: String) async {
        guard let step = stepOffering(FlowActionName.selectMethod) else { return }
        if let methods = step.selectMethod?.methods, !methods.contains(where: { $0.id == id }) {
            emitLocalError(
                .invalidRequest, action: .retryInput, message: "Choose one of the methods offered.",
                field: InvalidField(name: "methodId", reason: "Not one of the methods offered."))
            return
        }
        await perform(actionNamed: FlowActionName.selectMethod, parameters: ["methodId": id])
    }

    func skip() async {
        guard stepOffering(FlowActionName.skip) != nil else { return }
        await perform(actionNamed: FlowActionName.skip, parameters: [:])
    }

    func submitPhone(_ phone: String) async {
        await perform(
            actionNamed: FlowActionName.submitPhone,
            parameters: ["phone": phone.trimmingCharacters(in: .whitespacesAndNewlines)])
    }

    func submitTotp(_ code: String) async {
        await perform(actionNamed: FlowActionName.submitTotp, parameters: ["code": code.filter { !$0.isWhitespace }])
    }

    func submitPassword(_ password: String) async {
        await perform(actionNamed: FlowActionName.submitPassword, parameters: ["password": password])
    }

    func submitForm(_ values: [String: String]) async {
        guard let step = stepOffering(FlowActionName.submitForm),
            let action = step.action(named: FlowActionName.submitForm)
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
        guard name != FlowActionName.cancel else {
            await cancel()
            return
        }
        guard stepOffering(name) != nil else { return }
        await perform(actionNamed: name, parameters: [:])
    }

    /// The current step when it offers the action `name`; otherwise emits the local error
    /// (`no_active_flow` or `action_unavailable`) and returns `nil`.
    private func stepOffering(_ name: String) -> Step? {
        guard let step else {
            emitLocalError(.noActiveFlow, action: .restartFlow, message: "There is no sign-in in progress. Start one first.")
            return nil
        }
        guard step.action(named: name) != nil else {
            emitLocalError(.actionUnavailable, action: .abort, message: FlowActionName.unavailableMessage(name))
            return nil
        }
        return step
    }
}
