/// The names of the actions the server offers on its steps, and how a sentence refers to each.
enum FlowActionName {
    static let submitCode = "submitCode"
    static let resend = "resend"
    static let selectMethod = "selectMethod"
    static let skip = "skip"
    static let submitPhone = "submitPhone"
    static let submitTotp = "submitTotp"
    static let submitPassword = "submitPassword"
    static let submitForm = "submitForm"
    static let cancel = "cancel"

    /// The sentence of the local error for an action the current step does not offer.
    static func unavailableMessage(_ name: String) -> String {
        switch name {
        case submitCode: "This step does not ask for a one-time code."
        case resend: "This step cannot send a new code."
        case selectMethod: "This step does not offer a choice of method."
        case skip: "This step cannot be skipped."
        case submitPhone: "This step does not ask for a phone number."
        case submitTotp: "This step does not ask for an authenticator code."
        case submitPassword: "This step does not ask for a password."
        case submitForm: "This step has no form to submit."
        default: "This step does not offer the operation \(name)."
        }
    }
}
