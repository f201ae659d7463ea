import Foundation
import KeywayProtocol

/// The input a step asks for. Each case says what to render; the ``KeywayFlow`` call that answers
/// it is named in its documentation. Every prompt can also be abandoned with
/// ``KeywayFlow/cancel()``, and its raw step is in ``PromptContext/step``.
public enum Prompt: Sendable, Equatable {
    /// Enter the one-time code sent to `destination` (masked) by email or SMS (`channel`). Show a
    /// field of `codeLength` digits. A new code can be requested from `resendAt` on; the current
    /// one is valid until `expiresAt`.
    ///
    /// Answer with ``KeywayFlow/submitCode(_:)``; ask for a new code with ``KeywayFlow/resend()``.
    case enterCode(destination: String, codeLength: Int, expiresAt: Date, resendAt: Date, channel: CodeChannel)

    /// Choose a method: show one button per option (its `label`, and its masked `destination`
    /// for code methods). `purpose` says what the choice is for (the first factor of a sign-in,
    /// a second factor, a method to set up, or proving who you are again). When `skippable` is
    /// `true`, also offer to skip.
    ///
    /// Answer with ``KeywayFlow/selectMethod(id:)`` (the option's ``MethodOption/id``), or
    /// ``KeywayFlow/skip()`` when `skippable`.
    case selectMethod(methods: [MethodOption], purpose: MethodPurpose, skippable: Bool)

    /// Collect the phone number that receives codes by SMS, or confirm the one already on the
    /// account (`existingPhone`, masked). Show a phone field (E.164, such as `+14155550123`).
    ///
    /// Answer with ``KeywayFlow/submitPhone(_:)``.
    case setupSms(existingPhone: String?)

    /// Set up an authenticator app: show `otpauthUrl` as a QR code and `secret` (Base32) for
    /// manual entry, then a field for the first code (`digits` digits, a new one every `period`
    /// seconds, HMAC-`algorithm`). Both secrets are ``Sensitive``: read them with `.revealed` only
    /// to display them, never log them.
    ///
    /// Answer with ``KeywayFlow/submitTotp(_:)`` with the code the app shows.
    case setupTotp(
        secret: Sensitive<String>, otpauthUrl: Sensitive<String>, period: Int, digits: Int, algorithm: String)

    /// Enter the current code of the authenticator app: a field of `digits` digits. `purpose`
    /// says what it is for (usually a second factor). Attempts left are in
    /// `context.step.enterTotp?.attemptsRemaining`.
    ///
    /// Answer with ``KeywayFlow/submitTotp(_:)``.
    case enterTotp(digits: Int, purpose: MethodPurpose)

    /// Enter a password: the account's password to sign in (`purpose == .signIn`), or a new one
    /// (`.create`, `.change`, `.reset`) of at least `minimumLength` characters when given. Show a
    /// secure text field, and "Forgot password?" when ``PromptContext/offersPasswordReset``.
    ///
    /// Answer with ``KeywayFlow/submitPassword(_:)``, or ``KeywayFlow/resetPassword()``.
    case enterPassword(purpose: PasswordPurpose, minimumLength: Int?)

    /// Fill in a server-defined form titled `title`: render one input per field, by its
    /// ``Field/type`` (`hidden` fields are not shown and keep their value; `select` fields offer
    /// their ``Field/options``; `checkbox` fields are yes/no), with its label, placeholder and
    /// limits. ``KeywayProtocol/Action/validate(_:)`` checks values locally and names each bad
    /// field.
    ///
    /// Answer with ``KeywayFlow/submitForm(_:)`` (values by field name).
    case form(formId: String, title: String, fields: [Field])

    /// The account's methods (`methods`) and what the user may do with them now (`operations`:
    /// the step's actions other than `cancel`, such as `setupTotp`, `removeTotp`, `setupSms`,
    /// `removeSms`, `changePassword`, `revokeDevice`, `revokeAllDevices`, `addPasskey`,
    /// `renamePasskey`, `removePasskey`, `endSession`, `endOtherSessions` and `finish`). Show the
    /// methods and one button per operation (its ``KeywayProtocol/Action/label``). The account's
    /// trusted devices, when the application has them, are in `context.step.manageAccount?.devices`;
    /// its passkeys, when the application offers them, in `context.step.manageAccount?.passkeys`;
    /// where it is signed in, in `context.step.manageAccount?.sessions`.
    ///
    /// Answer with ``KeywayFlow/perform(operation:)`` and the operation's name,
    /// ``KeywayFlow/revokeDevice(id:)`` for one device, ``KeywayFlow/endSession(id:)`` for one
    /// session, or ``KeywayFlow/addPasskey()``, ``KeywayFlow/renamePasskey(id:name:)`` and
    /// ``KeywayFlow/removePasskey(id:)``.
    case manageAccount(methods: [EnrolledMethod], operations: [Action])

    /// Wait while one of the user's trusted devices approves the sign-in: show `matchingNumber`
    /// (the approving device shows it too, and the user checks they match) and `qrData` as a QR
    /// code that a trusted device can scan instead; the request expires at `expiresAt`.
    ///
    /// With ``KeywayOptions/autoPollApprovals`` (the default) the SDK polls until the sign-in is
    /// approved (the flow moves on), denied (`approval_denied`, `abort`) or expired
    /// (`approval_expired`, `restartFlow`); otherwise call ``KeywayFlow/pollApproval()``. Abandon
    /// it with ``KeywayFlow/cancel()``.
    case awaitApproval(matchingNumber: String, qrData: Sensitive<String>, expiresAt: Date)

    /// Sign in with an upstream provider (`provider`: its label, such as "Continue with Google",
    /// and icon): open `url` (the provider's authorization page, `http` or `https`) in a browser
    /// — `ASWebAuthenticationSession` with `returnScheme` as its callback scheme on Apple
    /// platforms, the system browser elsewhere. The browser comes back to `returnScheme` (the
    /// app's scheme, or `https`/`http` for a web or loopback redirect) with the flow's `state`.
    ///
    /// Answer with ``KeywayFlow/oauthCallback(url:)`` with the URL the app received (or
    /// ``KeywayFlow/oauthCallback(code:state:)``); a URL of another scheme or state is refused
    /// before any request (`invalid_callback`).
    case redirect(url: URL, returnScheme: String, provider: FederationProvider)

    /// Make a passkey for the account: a button ("Create a passkey") that hands `options` to a
    /// ``PasskeyAuthenticator`` (on Apple platforms ``PlatformPasskeyAuthenticator``, which shows
    /// the system's sheet), with an optional field for the passkey's name. `purpose` is
    /// `enrolment`. When `skippable` is `true` (an offer after a sign-in), also offer to skip.
    ///
    /// Answer with ``KeywayFlow/registerPasskey(using:name:)``, or ``KeywayFlow/skip()`` when
    /// `skippable`.
    case passkeyRegister(options: PublicKeyCredentialCreationOptions, purpose: MethodPurpose, skippable: Bool)

    /// Sign with a passkey: a button ("Use a passkey") that hands `options` to a
    /// ``PasskeyAuthenticator``. `purpose` says what for (`primary`, `secondFactor`,
    /// `reverification`); an empty `options.allowCredentials` lets any passkey of the relying
    /// party answer, and it names the account. `attemptsRemaining` refused signatures are left.
    /// A refused signature spends the challenge: after it the flow reads its step again, and the
    /// current prompt carries the new options.
    ///
    /// Answer with ``KeywayFlow/authenticateWithPasskey(using:)``.
    case passkeyAuthenticate(options: PublicKeyCredentialRequestOptions, purpose: MethodPurpose, attemptsRemaining: Int)

    /// The identity `provider` vouched for is new, and an account already uses its address
    /// (`identifierHint`, masked): say so ("Sign in to link your Google account"). The user then
    /// signs in to that account the usual way, and the identity is linked to it when the sign-in
    /// completes.
    ///
    /// Answer with ``KeywayFlow/continueLinking()``, or ``KeywayFlow/cancel()``.
    case linkAccount(provider: FederationProvider, identifierHint: String)
    /// A guest's sign-up (an upgrade) proved an identifier that already has an account
    /// (`identifierHint`, masked). Let the user choose: sign in to that account — the guest's data
    /// is then the app's backend's to merge (the `guest.merged` event, and
    /// ``KeywayEvent/Name/guestMerged`` here) — or stay a guest.
    ///
    /// Answer with ``KeywayFlow/signInInstead()`` or ``KeywayFlow/stayGuest()``.
    case accountExists(identifierHint: String)

    /// A step this SDK version has no prompt for, or a known step without its payload. Render
    /// its actions and fields from ``PromptContext/step`` and answer with
    /// ``KeywayFlow/submit(action:parameters:)`` or ``KeywayFlow/follow(link:)``.
    case unrecognized(kind: StepKind)

    /// The prompt for a step, or `nil` for a completed step. A step whose kind is known but
    /// whose payload is missing (or a `form` step without a `submitForm` action) is
    /// ``unrecognized(kind:)``.
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
            self = .form(formId: payload.formId, title: payload.title, fields: submit.fields)
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
                options: payload.options, purpose: payload.purpose,
                skippable: step.action(named: FlowAction.skip.name) != nil)
        case .passkeyAuthenticate(let payload):
            self = .passkeyAuthenticate(
                options: payload.options, purpose: payload.purpose, attemptsRemaining: payload.attemptsRemaining)
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
