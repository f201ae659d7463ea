/// An action the server offers on its steps, by name, with the sentence of the local error the SDK
/// answers when the current step does not offer it. The engine's own actions are here; each
/// method's are beside its answers (`Flow/Methods/`).
struct FlowAction: Sendable {
    let name: String
    /// The sentence of the local `action_unavailable` error.
    let unavailableMessage: String

    /// An action named by the app (an operation of the manage step, or any other).
    static func named(_ name: String) -> FlowAction {
        FlowAction(name: name, unavailableMessage: "This step does not offer the operation \(name).")
    }

    static let selectMethod = FlowAction(
        name: "selectMethod", unavailableMessage: "This step does not offer a choice of method.")
    static let skip = FlowAction(name: "skip", unavailableMessage: "This step cannot be skipped.")
    static let anotherMethod = FlowAction(
        name: "anotherMethod", unavailableMessage: "This step was not chosen among other methods.")
    static let submitForm = FlowAction(name: "submitForm", unavailableMessage: "This step has no form to submit.")
    static let cancel = FlowAction(name: "cancel", unavailableMessage: "This step cannot be cancelled.")
}
