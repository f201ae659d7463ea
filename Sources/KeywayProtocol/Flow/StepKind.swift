/// The kind of a step, which the SDK maps to a prompt. Unknown kinds decode without failing, so a
/// generic renderer can still show a step from a newer server through its actions and fields.
public struct StepKind: OpenStringValue {
    /// The kind as the wire spells it (`enterCode`).
    public let rawValue: String
    /// Creates a kind from its wire spelling; one this version does not know is kept as it is.
    ///
    /// - Parameter rawValue: The kind as the wire spells it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Enter a one-time code sent by email or SMS. Payload: ``StepPayload/enterCode(_:)``.
    public static let enterCode = StepKind(rawValue: "enterCode")
    /// Choose a method among those available now. Payload: ``StepPayload/selectMethod(_:)``.
    public static let selectMethod = StepKind(rawValue: "selectMethod")
    /// Collect or confirm the phone number that receives codes. Payload: ``StepPayload/setupSms(_:)``.
    public static let setupSms = StepKind(rawValue: "setupSms")
    /// Set up an authenticator app. Payload: ``StepPayload/setupTotp(_:)``.
    public static let setupTotp = StepKind(rawValue: "setupTotp")
    /// Enter a code from the authenticator app. Payload: ``StepPayload/enterTotp(_:)``.
    public static let enterTotp = StepKind(rawValue: "enterTotp")
    /// Enter, choose or change a password. Payload: ``StepPayload/enterPassword(_:)``.
    public static let enterPassword = StepKind(rawValue: "enterPassword")
    /// Fill in server-defined fields (the fields of the `submitForm` action). Payload: ``StepPayload/form(_:)``.
    public static let form = StepKind(rawValue: "form")
    /// See and change the account's methods. Payload: ``StepPayload/manageAccount(_:)``.
    public static let manageAccount = StepKind(rawValue: "manageAccount")
    /// Internal: the SDK enrols this device as trusted. Payload: ``StepPayload/deviceEnroll(_:)``.
    public static let deviceEnroll = StepKind(rawValue: "deviceEnroll")
    /// Internal: the SDK proves this trusted device. Payload: ``StepPayload/deviceChallenge(_:)``.
    public static let deviceChallenge = StepKind(rawValue: "deviceChallenge")
    /// Wait for a trusted device to approve the sign-in. Payload: ``StepPayload/awaitApproval(_:)``.
    public static let awaitApproval = StepKind(rawValue: "awaitApproval")
    /// A guest's sign-up proved an identifier that has an account: sign in to it instead, or stay
    /// a guest. Payload: ``StepPayload/accountExists(_:)``.
    public static let accountExists = StepKind(rawValue: "accountExists")
    /// The flow is finished. Payload: ``StepPayload/completed(_:)``.
    public static let completed = StepKind(rawValue: "completed")
    /// Open a URL in a browser to sign in with an upstream provider, then send back the callback.
    /// Payload: ``StepPayload/redirect(_:)``.
    public static let redirect = StepKind(rawValue: "redirect")
    /// Sign in to the existing account to link a new upstream identity to it.
    /// Payload: ``StepPayload/linkAccount(_:)``.
    public static let linkAccount = StepKind(rawValue: "linkAccount")
    /// Make a passkey: hand the options to a WebAuthn authenticator and send its answer.
    /// Payload: ``StepPayload/passkeyRegister(_:)``.
    public static let passkeyRegister = StepKind(rawValue: "passkeyRegister")
    /// Sign with a passkey: hand the options to a WebAuthn authenticator and send its answer.
    /// Payload: ``StepPayload/passkeyAuthenticate(_:)``.
    public static let passkeyAuthenticate = StepKind(rawValue: "passkeyAuthenticate")

}
