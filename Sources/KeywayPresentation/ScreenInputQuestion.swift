import KeywayProtocol

extension ScreenInput {
    /// What a renderer that asks in words — a terminal, a voice — asks for the input on a screen
    /// of `kind`, in the input's language and without punctuation after it: `Enter the 6-digit
    /// code from your authenticator app`, `New password (at least 10 characters)`, `Phone number
    /// for codes by SMS (such as +14155550123)`, `Plan (optional)`. A choice or a yes-or-no input
    /// is asked by its label; the renderer adds how to answer it.
    ///
    /// - Parameter kind: The kind of the screen the input is on.
    /// - Returns: The question.
    public func question(on kind: Screen.Kind) -> String {
        let authenticator = kind == .step(.enterTotp) || kind == .step(.setupTotp)
        switch self.kind {
        case .code(let length?):
            return authenticator
                ? language("Enter the %@-digit code from your authenticator app", "\(length)")
                : language("Enter the %@-digit code", "\(length)")
        case .code(nil):
            return authenticator ? language("Enter the code from your authenticator") : language("Enter the code")
        case .newPassword(let minimumLength?):
            return language("New password (at least %@ characters)", "\(minimumLength)")
        case .phone where kind == .step(.setupSms):
            return language("Phone number for codes by SMS (such as %@)", placeholder ?? "+14155550123")
        default:
            return isRequired ? label : language("%@ (optional)", label)
        }
    }
}
