#if canImport(SwiftUI) && DEBUG
    import Keyway
    import SwiftUI

    /// Fixture screens for the previews of the prebuilt views.
    enum PreviewScreens {
        static let codeField = Field(
            name: "code", type: .code, required: true, label: "Code", placeholder: "000000",
            autocomplete: "one-time-code", minLength: 6, maxLength: 6, pattern: "^[0-9]{6}$")

        static let code = Screen(
            kind: .step(.enterCode), title: "Verify your email",
            messages: [ScreenMessage(level: .info, code: "codeSent", text: "We sent a 6-digit code to a•••@example.com.")],
            inputs: [ScreenInput(field: codeField, kind: .code(length: 6))],
            primaryAction: ScreenAction(id: "submitCode", label: "Continue", role: .primary, actionName: "submitCode", submitsInputs: true),
            secondaryActions: [
                ScreenAction(id: "resend", label: "Send a new code", role: .secondary, actionName: "resend"),
                ScreenAction(id: "cancel", label: "Cancel", role: .cancel, actionName: "cancel"),
            ])

        static let wrongCode: Screen = {
            var screen = code
            screen.inputs[0].error = "That code is not right."
            screen.banner = Banner(
                code: .invalidCode, message: "That code is not right. You have 4 attempts left.", action: .retryInput,
                recovery: .retry, suggestion: "Check what you entered and try again.")
            return screen
        }()

        static let signInLink: Screen = {
            var screen = code
            screen.title = "Check your email"
            screen.instruction = "Open the link, or enter the code"
            screen.messages = [
                ScreenMessage(
                    level: .info, code: "linkSent",
                    text: "We sent a sign-in link and a 6-digit code to a•••@example.com. Open the link, or enter the code.")
            ]
            screen.isWaiting = true
            return screen
        }()

        static let methods = Screen(
            kind: .step(.selectMethod), title: "Second factor",
            secondaryActions: [
                ScreenAction(id: "selectMethod:totp", label: "Use your authenticator app", role: .secondary, actionName: "selectMethod"),
                ScreenAction(id: "selectMethod:smsOtp", label: "Text a code to +1••••••••23", role: .secondary, actionName: "selectMethod"),
                ScreenAction(id: "skip", label: "Not now", role: .secondary, actionName: "skip"),
            ])

        static let authenticator = Screen(
            kind: .step(.setupTotp), title: "Set up your authenticator",
            displays: [
                .qrCode(label: "Scan with your authenticator app", data: Sensitive("otpauth://totp/Shop:ada@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Shop")),
                .secret(label: "Or type this key", value: Sensitive("JBSW Y3DP EHPK 3PXP")),
            ],
            inputs: [ScreenInput(field: codeField, kind: .code(length: 6))],
            primaryAction: ScreenAction(id: "submitTotp", label: "Verify", role: .primary, actionName: "submitTotp", submitsInputs: true))

        static let approval = Screen(
            kind: .step(.awaitApproval), title: "Approve on your other device",
            displays: [.emphasis(label: "Check that your other device shows", value: "47")],
            secondaryActions: [ScreenAction(id: "cancel", label: "Cancel", role: .cancel, actionName: "cancel")])

        @MainActor
        static func model(_ screen: Screen) -> KeywayScreenModel {
            // A placeholder server: previews never send a request.
            let keyway = try? KeywayClient(configID: "cfg_preview", baseURL: URL(string: "https://auth.example.com")!)
            let model = KeywayScreenModel(keyway: keyway!)
            model.screen = screen
            return model
        }
    }

    #Preview("Code") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.code)) }
    #Preview("Wrong code") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.wrongCode)) }
    #Preview("Sign-in link") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.signInLink)) }
    #Preview("Method choice") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.methods)) }
    #Preview("Authenticator") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.authenticator)) }
    #Preview("Approval") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.approval)) }
    #Preview("Themed") {
        KeywayScreenView(
            model: PreviewScreens.model(PreviewScreens.code), theme: KeywayTheme(accentColor: .purple, cornerRadius: 16))
    }
#endif
