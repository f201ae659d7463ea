import Foundation
import KeywayProtocol

/// The input a step asks for: its ``kind``, and its values through the accessor of that kind
/// (``enterCode``, ``selectMethod``…), each documenting what to render and the ``KeywayFlow`` call
/// that answers it. Every prompt can also be abandoned with ``KeywayFlow/cancel()``, and its raw
/// step is in ``PromptContext/step``.
///
/// The kinds are open, as ``StepKind`` is: a server that adds a method adds a kind, and an app's
/// `switch` on ``kind`` keeps building because it ends in `default:`, which draws any other step
/// from ``PromptContext/step`` (its actions and fields):
///
/// ```swift
/// switch prompt.kind {
/// case .enterCode: showCodeField(prompt.enterCode?.codeLength ?? 6)
/// case .selectMethod: showChoices(prompt.selectMethod?.methods ?? [])
/// default: drawFromActions(context.step)   // kinds this app does not know yet
/// }
/// ```
public struct Prompt: Sendable, Equatable {
    /// What the step asks for; the accessor of the same name holds its values.
    public let kind: StepKind
    /// The values, by kind: what the SDK's own renderers switch on.
    package let payload: Payload

    /// A prompt's values, one case per kind this SDK version draws.
    package enum Payload: Sendable, Equatable {
        /// See ``Prompt/enterCode``.
        case enterCode(destination: String, codeLength: Int, expiresAt: Date, resendAt: Date, channel: CodeChannel)
        /// See ``Prompt/selectMethod``.
        case selectMethod(methods: [MethodOption], purpose: MethodPurpose, skippable: Bool)
        /// See ``Prompt/setupSms``.
        case setupSms(existingPhone: String?)
        /// See ``Prompt/setupTotp``.
        case setupTotp(secret: Sensitive<String>, otpauthUrl: Sensitive<String>, period: Int, digits: Int, algorithm: String)
        /// See ``Prompt/enterTotp``.
        case enterTotp(digits: Int, purpose: MethodPurpose)
        /// See ``Prompt/enterPassword``.
        case enterPassword(purpose: PasswordPurpose, minimumLength: Int?)
        /// See ``Prompt/form``.
        case form(formID: String, title: String, fields: [Field])
        /// See ``Prompt/manageAccount``.
        case manageAccount(methods: [EnrolledMethod], operations: [Action])
        /// See ``Prompt/awaitApproval``.
        case awaitApproval(matchingNumber: String, qrData: Sensitive<String>, expiresAt: Date)
        /// See ``Prompt/redirect``.
        case redirect(url: URL, returnScheme: String, provider: FederationProvider)
        /// See ``Prompt/passkeyRegister``.
        case passkeyRegister(purpose: MethodPurpose, skippable: Bool)
        /// See ``Prompt/passkeyAuthenticate``.
        case passkeyAuthenticate(purpose: MethodPurpose, attemptsRemaining: Int)
        /// See ``Prompt/linkAccount``.
        case linkAccount(provider: FederationProvider, identifierHint: String)
        /// See ``Prompt/accountExists``.
        case accountExists(identifierHint: String)
        /// See ``Prompt/unrecognized``.
        case unrecognized(kind: StepKind)
    }

    /// A prompt of `kind` with `payload`.
    package init(kind: StepKind, payload: Payload) {
        self.kind = kind
        self.payload = payload
    }

    /// The prompt for a step, or `nil` for a completed step. A step whose kind is known but
    /// whose payload is missing (or a `form` step without a `submitForm` action) is
    /// ``unrecognized``.
    ///
    /// - Parameter step: The step to draw.
    public init?(step: Step) {
        switch step.payload {
        case .completed:
            return nil
        case .enterCode(let payload):
            self = .enterCode(
                destination: payload.destination, codeLength: payload.codeLength, expiresAt: payload.expiresAt,
                resendAt: payload.resendAt, channel: payload.channel)
        case .selectMethod(let payload):
            self = .selectMethod(methods: payload.methods, purpose: payload.purpose, skippable: payload.skippable)
        case .setupSms(let payload):
            self = .setupSms(existingPhone: payload.existingPhone)
        case .setupTotp(let payload):
            self = .setupTotp(
                secret: payload.secret, otpauthUrl: payload.otpauthUrl, period: payload.period, digits: payload.digits,
                algorithm: payload.algorithm)
        case .enterTotp(let payload):
            self = .enterTotp(digits: payload.digits, purpose: payload.purpose)
        case .enterPassword(let payload):
            self = .enterPassword(purpose: payload.purpose, minimumLength: payload.minimumLength)
        case .form(let payload):
            guard let submit = step.action(named: FlowAction.submitForm.name) else {
                self = .unrecognized(kind: step.kind)
                return
            }
            self = .form(formID: payload.formID, title: payload.title, fields: submit.fields)
        case .manageAccount(let payload):
            self = .manageAccount(
                methods: payload.methods, operations: step.actions.filter { $0.name != FlowAction.cancel.name })
        case .awaitApproval(let payload):
            self = .awaitApproval(matchingNumber: payload.matchingNumber, qrData: payload.qrData, expiresAt: payload.expiresAt)
        case .redirect(let payload):
            guard let url = Self.browserURL(payload.url), !payload.returnScheme.isEmpty else {
                self = .unrecognized(kind: step.kind)
                return
            }
            self = .redirect(url: url, returnScheme: payload.returnScheme.lowercased(), provider: payload.provider)
        case .linkAccount(let payload):
            self = .linkAccount(provider: payload.provider, identifierHint: payload.identifierHint)
        case .accountExists(let payload):
            self = .accountExists(identifierHint: payload.identifierHint)
        case .passkeyRegister(let payload):
            self = .passkeyRegister(
                purpose: payload.purpose, skippable: step.action(named: FlowAction.skip.name) != nil)
        case .passkeyAuthenticate(let payload):
            self = .passkeyAuthenticate(purpose: payload.purpose, attemptsRemaining: payload.attemptsRemaining)
        case .deviceEnroll, .deviceChallenge, .none:
            self = .unrecognized(kind: step.kind)
        }
    }

    /// `text` as a URL a browser may open: absolute, `http` or `https`, with a host.
    private static func browserURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }
}

// MARK: Making prompts (previews, tests) and reading their values

extension Prompt {
    /// A ``StepKind/enterCode`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func enterCode(destination: String, codeLength: Int, expiresAt: Date, resendAt: Date, channel: CodeChannel) -> Prompt {
        Prompt(kind: .enterCode, payload: .enterCode(destination: destination, codeLength: codeLength, expiresAt: expiresAt, resendAt: resendAt, channel: channel))
    }

    /// Enter the one-time code sent to `destination` (masked) by email or SMS (`channel`). Show a
    /// field of `codeLength` digits. A new code can be requested from `resendAt` on; the current
    /// one is valid until `expiresAt`.
    ///
    /// Answer with ``KeywayFlow/submitCode(_:)``; ask for a new code with ``KeywayFlow/resend()``.
    ///
    /// `nil` when the prompt is of another kind.
    public var enterCode: (destination: String, codeLength: Int, expiresAt: Date, resendAt: Date, channel: CodeChannel)? {
        guard case .enterCode(let destination, let codeLength, let expiresAt, let resendAt, let channel) = payload else { return nil }
        return (destination, codeLength, expiresAt, resendAt, channel)
    }

    /// A ``StepKind/selectMethod`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func selectMethod(methods: [MethodOption], purpose: MethodPurpose, skippable: Bool) -> Prompt {
        Prompt(kind: .selectMethod, payload: .selectMethod(methods: methods, purpose: purpose, skippable: skippable))
    }

    /// Choose a method: show one button per option (its `label`, and its masked `destination`
    /// for code methods). `purpose` says what the choice is for (the first factor of a sign-in,
    /// a second factor, a method to set up, or proving who you are again). When `skippable` is
    /// `true`, also offer to skip.
    ///
    /// Answer with ``KeywayFlow/selectMethod(id:)`` (the option's ``MethodOption/id``), or
    /// ``KeywayFlow/skip()`` when `skippable`.
    ///
    /// `nil` when the prompt is of another kind.
    public var selectMethod: (methods: [MethodOption], purpose: MethodPurpose, skippable: Bool)? {
        guard case .selectMethod(let methods, let purpose, let skippable) = payload else { return nil }
        return (methods, purpose, skippable)
    }

    /// A ``StepKind/setupSms`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func setupSms(existingPhone: String?) -> Prompt {
        Prompt(kind: .setupSms, payload: .setupSms(existingPhone: existingPhone))
    }

    /// Collect the phone number that receives codes by SMS, or confirm the one already on the
    /// account (`existingPhone`, masked). Show a phone field (E.164, such as `+14155550123`).
    ///
    /// Answer with ``KeywayFlow/submitPhone(_:)``.
    ///
    /// `nil` when the prompt is of another kind.
    public var setupSms: String?? {
        guard case .setupSms(let existingPhone) = payload else { return nil }
        return existingPhone
    }

    /// A ``StepKind/setupTotp`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func setupTotp(secret: Sensitive<String>, otpauthUrl: Sensitive<String>, period: Int, digits: Int, algorithm: String) -> Prompt {
        Prompt(kind: .setupTotp, payload: .setupTotp(secret: secret, otpauthUrl: otpauthUrl, period: period, digits: digits, algorithm: algorithm))
    }

    /// Set up an authenticator app: show `otpauthUrl` as a QR code and `secret` (Base32) for
    /// manual entry, then a field for the first code (`digits` digits, a new one every `period`
    /// seconds, HMAC-`algorithm`). Both secrets are ``Sensitive``: read them with `.revealed` only
    /// to display them, never log them.
    ///
    /// Answer with ``KeywayFlow/submitTotp(_:)`` with the code the app shows.
    ///
    /// `nil` when the prompt is of another kind.
    public var setupTotp: (secret: Sensitive<String>, otpauthUrl: Sensitive<String>, period: Int, digits: Int, algorithm: String)? {
        guard case .setupTotp(let secret, let otpauthUrl, let period, let digits, let algorithm) = payload else { return nil }
        return (secret, otpauthUrl, period, digits, algorithm)
    }

    /// A ``StepKind/enterTotp`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func enterTotp(digits: Int, purpose: MethodPurpose) -> Prompt {
        Prompt(kind: .enterTotp, payload: .enterTotp(digits: digits, purpose: purpose))
    }

    /// Enter the current code of the authenticator app: a field of `digits` digits. `purpose`
    /// says what it is for (usually a second factor). Attempts left are in
    /// `context.step.payload.enterTotp?.attemptsRemaining`.
    ///
    /// Answer with ``KeywayFlow/submitTotp(_:)``.
    ///
    /// `nil` when the prompt is of another kind.
    public var enterTotp: (digits: Int, purpose: MethodPurpose)? {
        guard case .enterTotp(let digits, let purpose) = payload else { return nil }
        return (digits, purpose)
    }

    /// A ``StepKind/enterPassword`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func enterPassword(purpose: PasswordPurpose, minimumLength: Int?) -> Prompt {
        Prompt(kind: .enterPassword, payload: .enterPassword(purpose: purpose, minimumLength: minimumLength))
    }

    /// Enter a password: the account's password to sign in (`purpose == .signIn`), or a new one
    /// (`.create`, `.change`, `.reset`) of at least `minimumLength` characters when given. Show a
    /// secure text field, and "Forgot password?" when ``PromptContext/offersPasswordReset``.
    ///
    /// Answer with ``KeywayFlow/submitPassword(_:)``, or ``KeywayFlow/resetPassword()``.
    ///
    /// `nil` when the prompt is of another kind.
    public var enterPassword: (purpose: PasswordPurpose, minimumLength: Int?)? {
        guard case .enterPassword(let purpose, let minimumLength) = payload else { return nil }
        return (purpose, minimumLength)
    }

    /// A ``StepKind/form`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func form(formID: String, title: String, fields: [Field]) -> Prompt {
        Prompt(kind: .form, payload: .form(formID: formID, title: title, fields: fields))
    }

    /// Fill in a server-defined form titled `title`: render one input per field, by its
    /// ``Field/type`` (`hidden` fields are not shown and keep their value; `select` fields offer
    /// their ``Field/options``; `checkbox` fields are yes/no), with its label, placeholder and
    /// limits. ``KeywayProtocol/Action/validate(_:)`` checks values locally and names each bad
    /// field.
    ///
    /// Answer with ``KeywayFlow/submitForm(_:)`` (values by field name).
    ///
    /// `nil` when the prompt is of another kind.
    public var form: (formID: String, title: String, fields: [Field])? {
        guard case .form(let formID, let title, let fields) = payload else { return nil }
        return (formID, title, fields)
    }

    /// A ``StepKind/manageAccount`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func manageAccount(methods: [EnrolledMethod], operations: [Action]) -> Prompt {
        Prompt(kind: .manageAccount, payload: .manageAccount(methods: methods, operations: operations))
    }

    /// The account's methods (`methods`) and what the user may do with them now (`operations`:
    /// the step's actions other than `cancel`, such as `setupTotp`, `removeTotp`, `setupSms`,
    /// `removeSms`, `changePassword`, `revokeDevice`, `revokeAllDevices`, `addPasskey`,
    /// `renamePasskey`, `removePasskey`, `endSession`, `endOtherSessions` and `finish`). Show the
    /// methods and one button per operation (its ``KeywayProtocol/Action/label``). The account's
    /// trusted devices, when the application has them, are in `context.step.payload.manageAccount?.devices`;
    /// its passkeys, when the application offers them, in `context.step.payload.manageAccount?.passkeys`;
    /// where it is signed in, in `context.step.payload.manageAccount?.sessions`.
    ///
    /// Answer with ``KeywayFlow/perform(operation:)`` and the operation's name,
    /// ``KeywayFlow/revokeDevice(id:)`` for one device, ``KeywayFlow/endSession(id:)`` for one
    /// session, or ``KeywayFlow/addPasskey()``, ``KeywayFlow/renamePasskey(id:name:)`` and
    /// ``KeywayFlow/removePasskey(id:)``.
    ///
    /// `nil` when the prompt is of another kind.
    public var manageAccount: (methods: [EnrolledMethod], operations: [Action])? {
        guard case .manageAccount(let methods, let operations) = payload else { return nil }
        return (methods, operations)
    }

    /// A ``StepKind/awaitApproval`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func awaitApproval(matchingNumber: String, qrData: Sensitive<String>, expiresAt: Date) -> Prompt {
        Prompt(kind: .awaitApproval, payload: .awaitApproval(matchingNumber: matchingNumber, qrData: qrData, expiresAt: expiresAt))
    }

    /// Wait while one of the user's trusted devices approves the sign-in: show `matchingNumber`
    /// (the approving device shows it too, and the user checks they match) and `qrData` as a QR
    /// code that a trusted device can scan instead; the request expires at `expiresAt`.
    ///
    /// With ``KeywayOptions/autoPollApprovals`` (the default) the SDK polls until the sign-in is
    /// approved (the flow moves on), denied (`approval_denied`, `abort`) or expired
    /// (`approval_expired`, `restartFlow`); otherwise call ``KeywayFlow/pollApproval()``. Abandon
    /// it with ``KeywayFlow/cancel()``.
    ///
    /// `nil` when the prompt is of another kind.
    public var awaitApproval: (matchingNumber: String, qrData: Sensitive<String>, expiresAt: Date)? {
        guard case .awaitApproval(let matchingNumber, let qrData, let expiresAt) = payload else { return nil }
        return (matchingNumber, qrData, expiresAt)
    }

    /// A ``StepKind/redirect`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func redirect(url: URL, returnScheme: String, provider: FederationProvider) -> Prompt {
        Prompt(kind: .redirect, payload: .redirect(url: url, returnScheme: returnScheme, provider: provider))
    }

    /// Sign in with an upstream provider (`provider`: its label, such as "Continue with Google",
    /// and icon): open `url` (the provider's authorization page, `http` or `https`) in a browser
    /// — `ASWebAuthenticationSession` with `returnScheme` as its callback scheme on Apple
    /// platforms, the system browser elsewhere. The browser comes back to `returnScheme` (the
    /// app's scheme, or `https`/`http` for a web or loopback redirect) with the flow's `state`.
    ///
    /// Answer with ``KeywayFlow/oauthCallback(url:)`` with the URL the app received (or
    /// ``KeywayFlow/oauthCallback(code:state:)``); a URL of another scheme or state is refused
    /// before any request (`invalid_callback`).
    ///
    /// `nil` when the prompt is of another kind.
    public var redirect: (url: URL, returnScheme: String, provider: FederationProvider)? {
        guard case .redirect(let url, let returnScheme, let provider) = payload else { return nil }
        return (url, returnScheme, provider)
    }

    /// A ``StepKind/passkeyRegister`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func passkeyRegister(purpose: MethodPurpose, skippable: Bool) -> Prompt {
        Prompt(kind: .passkeyRegister, payload: .passkeyRegister(purpose: purpose, skippable: skippable))
    }

    /// Make a passkey for the account: a button ("Create a passkey") that hands the step's
    /// WebAuthn options to a ``PasskeyAuthenticator`` (on Apple platforms
    /// ``PlatformPasskeyAuthenticator``, which shows the system's sheet), with an optional field
    /// for the passkey's name. `purpose` is `enrolment`. When `skippable` is `true` (an offer
    /// after a sign-in), also offer to skip. The SDK hands the options over itself; an app never
    /// handles them.
    ///
    /// Answer with ``KeywayFlow/registerPasskey(using:name:)``, or ``KeywayFlow/skip()`` when
    /// `skippable`.
    ///
    /// `nil` when the prompt is of another kind.
    public var passkeyRegister: (purpose: MethodPurpose, skippable: Bool)? {
        guard case .passkeyRegister(let purpose, let skippable) = payload else { return nil }
        return (purpose, skippable)
    }

    /// A ``StepKind/passkeyAuthenticate`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func passkeyAuthenticate(purpose: MethodPurpose, attemptsRemaining: Int) -> Prompt {
        Prompt(kind: .passkeyAuthenticate, payload: .passkeyAuthenticate(purpose: purpose, attemptsRemaining: attemptsRemaining))
    }

    /// Sign with a passkey: a button ("Use a passkey") that hands the step's WebAuthn options to
    /// a ``PasskeyAuthenticator``. `purpose` says what for (`primary`, `secondFactor`,
    /// `reverification`); in a `primary` sign-in started without an identifier any passkey of the
    /// relying party may answer, and it names the account. `attemptsRemaining` refused signatures
    /// are left. A refused signature spends the challenge: after it the flow reads its step
    /// again, and the next answer uses the new options.
    ///
    /// Answer with ``KeywayFlow/authenticateWithPasskey(using:)``.
    ///
    /// `nil` when the prompt is of another kind.
    public var passkeyAuthenticate: (purpose: MethodPurpose, attemptsRemaining: Int)? {
        guard case .passkeyAuthenticate(let purpose, let attemptsRemaining) = payload else { return nil }
        return (purpose, attemptsRemaining)
    }

    /// A ``StepKind/linkAccount`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func linkAccount(provider: FederationProvider, identifierHint: String) -> Prompt {
        Prompt(kind: .linkAccount, payload: .linkAccount(provider: provider, identifierHint: identifierHint))
    }

    /// The identity `provider` vouched for is new, and an account already uses its address
    /// (`identifierHint`, masked): say so ("Sign in to link your Google account"). The user then
    /// signs in to that account the usual way, and the identity is linked to it when the sign-in
    /// completes.
    ///
    /// Answer with ``KeywayFlow/continueLinking()``, or ``KeywayFlow/cancel()``.
    ///
    /// `nil` when the prompt is of another kind.
    public var linkAccount: (provider: FederationProvider, identifierHint: String)? {
        guard case .linkAccount(let provider, let identifierHint) = payload else { return nil }
        return (provider, identifierHint)
    }

    /// A ``StepKind/accountExists`` prompt with these values (previews and tests; the SDK makes its prompts
    /// from steps).
    public static func accountExists(identifierHint: String) -> Prompt {
        Prompt(kind: .accountExists, payload: .accountExists(identifierHint: identifierHint))
    }

    /// A guest's sign-up (an upgrade) proved an identifier that already has an account
    /// (`identifierHint`, masked). Let the user choose: sign in to that account — the guest's data
    /// is then the app's backend's to merge (the `guest.merged` event, and
    /// ``KeywayEvent/Name/guestMerged`` here) — or stay a guest.
    ///
    /// Answer with ``KeywayFlow/signInInstead()`` or ``KeywayFlow/stayGuest()``.
    ///
    /// `nil` when the prompt is of another kind.
    public var accountExists: String? {
        guard case .accountExists(let identifierHint) = payload else { return nil }
        return identifierHint
    }

    /// A prompt for a step this SDK version draws from its actions and fields only.
    ///
    /// - Parameter kind: The step's kind.
    public static func unrecognized(kind: StepKind) -> Prompt {
        Prompt(kind: kind, payload: .unrecognized(kind: kind))
    }

    /// A step this SDK version has no prompt for, or a known step without its payload. Render
    /// its actions and fields from ``PromptContext/step`` and answer with
    /// ``KeywayFlow/submit(action:parameters:)`` or ``KeywayFlow/follow(link:)``.
    public var unrecognized: StepKind? {
        guard case .unrecognized(let kind) = payload else { return nil }
        return kind
    }
}
