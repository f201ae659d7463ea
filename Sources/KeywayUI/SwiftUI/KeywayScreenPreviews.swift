// `#Preview` is a macro whose implementation comes with Xcode: a compiler without it (a swift.org
// toolchain that does not find Xcode's plugins) leaves the previews out with
// `-Xswiftc -DKEYWAY_NO_PREVIEWS`.
#if canImport(SwiftUI) && DEBUG && !KEYWAY_NO_PREVIEWS
    import Keyway
    import SwiftUI

    // Each screen of the flow as the app shows it (PreviewScreens makes them from steps as the
    // server sends them), in English, German and French, and the sign-in sheet around them.

    #Preview("Code") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.code(.english))) }
    #Preview("Wrong code") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.wrongCode(.english))) }
    #Preview("Sign-in link") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.signInLink(.english))) }
    #Preview("Method choice") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.methods(.english))) }
    #Preview("Password") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.password(.english))) }
    #Preview("New password") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.newPassword(.english))) }
    #Preview("Authenticator") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.authenticator(.english))) }
    #Preview("Approval") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.approval(.english))) }
    #Preview("Passkey") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.passkey(.english))) }
    #Preview("Account") { KeywayScreenView(model: PreviewScreens.model(PreviewScreens.account(.english))) }
    #Preview("Waiting for the server") {
        KeywayScreenView(model: PreviewScreens.model(PreviewScreens.loading(.english)))
    }
    #Preview("Code, in German") {
        KeywayScreenView(model: PreviewScreens.model(PreviewScreens.code(ScreenLanguage("de"))))
    }
    #Preview("Account, in French") {
        KeywayScreenView(model: PreviewScreens.model(PreviewScreens.account(ScreenLanguage("fr"))))
    }
    #Preview("Sign-in sheet") {
        Text("The app").sheet(isPresented: .constant(true)) {
            KeywaySignInView(model: PreviewScreens.model(Screen(kind: .idle, title: "", language: .english))) { _ in }
        }
    }
    #Preview("Themed") {
        KeywayScreenView(
            model: PreviewScreens.model(PreviewScreens.code(.english)),
            theme: KeywayTheme(accentColor: .purple, cornerRadius: 16))
    }
#endif
