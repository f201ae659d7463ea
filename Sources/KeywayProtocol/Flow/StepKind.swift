/// The kind of a step, which the SDK maps to a prompt. Unknown kinds decode without failing, so a
/// generic renderer can still show a step from a newer server through its actions and fields.
public struct StepKind: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Enter a one-time code sent by email or SMS. Payload: ``Step/enterCode``.
    public static let enterCode = StepKind(rawValue: "enterCode")
    /// Choose a method among those available now. Payload: ``Step/selectMethod``.
    public static let selectMethod = StepKind(rawValue: "selectMethod")
    /// Collect or confirm the phone number that receives codes. Payload: ``Step/setupSms``.
    public static let setupSms = StepKind(rawValue: "setupSms")
    /// Set up an authenticator app. Payload: ``Step/setupTotp``.
    public static let setupTotp = StepKind(rawValue: "setupTotp")
    /// Enter a code from the authenticator app. Payload: ``Step/enterTotp``.
    public static let enterTotp = StepKind(rawValue: "enterTotp")
    /// Enter, choose or change a password. Payload: ``Step/enterPassword``.
    public static let enterPassword = StepKind(rawValue: "enterPassword")
    /// Fill in server-defined fields (the fields of the `submitForm` action). Payload: ``Step/form``.
    public static let form = StepKind(rawValue: "form")
    /// See and change the account's methods. Payload: ``Step/manageAccount``.
    public static let manageAccount = StepKind(rawValue: "manageAccount")
    /// Internal: the SDK enrols this device as trusted. Payload: ``Step/deviceEnroll``.
    public static let deviceEnroll = StepKind(rawValue: "deviceEnroll")
    /// Internal: the SDK proves this trusted device. Payload: ``Step/deviceChallenge``.
    public static let deviceChallenge = StepKind(rawValue: "deviceChallenge")
    /// Wait for a trusted device to approve the sign-in. Payload: ``Step/awaitApproval``.
    public static let awaitApproval = StepKind(rawValue: "awaitApproval")
    /// The flow is finished. Payload: ``Step/completed``.
    public static let completed = StepKind(rawValue: "completed")

}
