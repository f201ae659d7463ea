import Foundation
import KeywayProtocol

/// The screens of the passkey prompts: one button that runs the model's
/// `PasskeyAuthenticator` (`KeywayScreenModel.init(keyway:passkeyAuthenticator:language:screens:)` in KeywayUI),
/// and the account's passkeys on the account screen.
extension Screen {
    /// The actions the passkey screens draw themselves.
    static let passkeyActions: Set<String> = ["registerPasskey", "authenticatePasskey", "skip", "cancel"]

    /// A `passkeyRegister` screen: what a passkey is, an optional name (at most 64 characters),
    /// "Create a passkey" (the `registerPasskey` action, which the model runs with its
    /// authenticator), and "Not now" when the step can be skipped.
    mutating func addPasskeyRegistration(_ step: Step, options: PublicKeyCredentialCreationOptions, skippable: Bool) {
        addMessageUnlessSent(
            ScreenMessage(
                level: .info, code: "passkeyRegister",
                text: language(
                    "A passkey lets you sign in as %@ with your face, fingerprint or device PIN, without a code or password.",
                    options.user.name)))
        let action = step.action(named: "registerPasskey")
        // The server's own name field when it describes one; the SDK fills in the credential.
        let name =
            action?.fields.first { $0.name == "name" && $0.type != .hidden }
            ?? Field(
                name: "name", type: .text, required: false, label: language("Name of the passkey (optional)"),
                placeholder: "iPhone", maxLength: 64)
        inputs = [Self.input(name, language)]
        primaryAction = ScreenAction(
            id: "registerPasskey", label: language.sent(action?.label) ?? language("Create a passkey"), role: .primary,
            actionName: "registerPasskey", submitsInputs: true)
        if skippable, let skip = step.action(named: "skip") {
            secondaryActions.append(
                ScreenAction(
                    id: "skip", label: language.sent(skip.label) ?? language("Not now"), role: .secondary,
                    actionName: "skip"))
        }
        addOtherActions(of: step)
    }

    /// A `passkeyAuthenticate` screen: what the passkey is for, a warning when few attempts are
    /// left, and "Use a passkey" (the `authenticatePasskey` action, which the model runs with its
    /// authenticator).
    mutating func addPasskeySignature(_ step: Step, purpose: MethodPurpose, attemptsRemaining: Int) {
        let key =
            switch purpose {
            case .primary: "Sign in with a passkey saved on this device or in your password manager."
            case .reverification: "Confirm it is you with your passkey."
            default: "Confirm the sign-in with your passkey."
            }
        addMessageUnlessSent(ScreenMessage(level: .info, code: "passkeyAuthenticate", text: language(key)))
        addAttemptsLeft(attemptsRemaining)
        let action = step.action(named: "authenticatePasskey")
        primaryAction = ScreenAction(
            id: "authenticatePasskey", label: language.sent(action?.label) ?? language("Use a passkey"), role: .primary,
            actionName: "authenticatePasskey")
        addOtherActions(of: step)
    }

    /// The step's actions the passkey screen does not draw itself, as buttons.
    private mutating func addOtherActions(of step: Step) {
        for action in step.actions where !Self.passkeyActions.contains(action.name) {
            secondaryActions.append(
                ScreenAction(
                    id: action.name, label: language.sent(action.label) ?? action.name, role: .secondary,
                    actionName: action.name))
        }
    }

    /// The account's passkeys: each name, whether it is synced, when it was made and last used.
    static func passkeyList(_ passkeys: [PasskeySummary], _ language: ScreenLanguage) -> ScreenDisplay {
        .list(
            title: language("Passkeys"),
            items: passkeys.map { passkey in
                var detail = [
                    passkey.synced ? language("synced") : language("this device only"),
                    language("created %@", passkey.createdAt.formatted(date: .abbreviated, time: .omitted)),
                ]
                if let lastUsed = passkey.lastUsedAt {
                    detail.append(language("last used %@", lastUsed.formatted(date: .abbreviated, time: .shortened)))
                }
                return ScreenListItem(title: passkey.name, detail: detail.joined(separator: ", "))
            })
    }
}
