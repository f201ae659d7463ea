import KeywayProtocol

extension ProblemCode {
    /// The server could not be reached (SDK-side code).
    public static let networkError = ProblemCode(rawValue: "network_error")
    /// The server's answer could not be read (SDK-side code).
    public static let invalidResponse = ProblemCode(rawValue: "invalid_response")
    /// The call needs an active flow and there is none (SDK-side code).
    public static let noActiveFlow = ProblemCode(rawValue: "no_active_flow")
    /// The current step offers no such action (SDK-side code).
    public static let actionUnavailable = ProblemCode(rawValue: "action_unavailable")
    /// The flow completed, but its code could not be redeemed or its tokens could not be saved
    /// in ``KeywayClient/session`` (SDK-side code; the message says why). Nothing was saved.
    public static let signInNotSaved = ProblemCode(rawValue: "sign_in_not_saved")
}

extension ProblemCode {
    /// The server asks for a step the linear sign-in calls do not answer (a second factor, a
    /// password…): go on with ``KeywayClient/flow`` from ``KeywayFlow/currentPrompt`` (SDK-side code).
    public static let unhandledStep = ProblemCode(rawValue: "unhandled_step")
}
