import Foundation
import KeywayProtocol

/// A message carrying a one-time code, on its way to a user through the delivery outbox.
struct OutgoingMessage: Sendable {
    var channel: CodeChannel
    var to: String
    /// The one-time code the message carries; `nil` for a notice without one.
    var code: Sensitive<String>?
    var subject: String
    var body: String
}

/// The text of a sign-in code message.
enum MessageTemplates {
    /// What a code is for, as its message says it: signing in, signing up, confirming the user
    /// (a second factor set up, account management), or choosing a new password.
    enum CodePurpose: Sendable {
        case signIn, signUp, verification, passwordReset
    }

    /// The code message: the application's email template when `template` is given (email), else
    /// the server's text for `purpose`.
    static func signInCode(
        _ code: String, minutes: Int, template: EmailTemplate?, application: String, purpose: CodePurpose = .signIn
    ) -> (subject: String, body: String) {
        guard let template else { return serverCode(code, minutes: minutes, purpose: purpose) }
        return template.render(["code": code, "minutes": "\(minutes)", "application": application])
    }

    /// The server's code message for `purpose`.
    static func serverCode(_ code: String, minutes: Int, purpose: CodePurpose) -> (subject: String, body: String) {
        switch purpose {
        case .signIn:
            return signInCode(code, minutes: minutes)
        case .signUp:
            return (
                "Your sign-up code",
                "Your sign-up code is \(code). It expires in \(minutes) minutes. If you did not try to create an account, ignore this message."
            )
        case .verification:
            return (
                "Your verification code",
                "Your verification code is \(code). It expires in \(minutes) minutes. If you did not ask for it, ignore this message."
            )
        case .passwordReset:
            return (
                "Your password reset code",
                "Your code to choose a new password is \(code). It expires in \(minutes) minutes. If you did not ask to reset your password, ignore this message: your password stays as it is."
            )
        }
    }

    /// The no-account notice: the application's email template when `template` is given, else the
    /// server's text.
    static func noAccount(template: EmailTemplate?, application: String) -> (subject: String, body: String) {
        guard let template else { return noAccount() }
        return template.render(["application": application])
    }

    static func signInCode(_ code: String, minutes: Int) -> (subject: String, body: String) {
        (
            "Your sign-in code",
            "Your sign-in code is \(code). It expires in \(minutes) minutes. If you did not try to sign in, ignore this message."
        )
    }

    /// The sign-in link email: the application's `signInLink` template when `template` is given
    /// (placeholders `{{link}}`, `{{code}}`, `{{minutes}}`, `{{application}}`), else the server's text.
    static func signInLink(
        link: String, code: String, minutes: Int, template: EmailTemplate?, application: String
    ) -> (subject: String, body: String) {
        guard let template else { return signInLink(link: link, code: code, minutes: minutes, application: application) }
        return template.render(["link": link, "code": code, "minutes": "\(minutes)", "application": application])
    }

    /// The sign-in link SMS: short — the code first (phones offer to fill it in), then the link.
    static func signInLinkSMS(link: String, code: String, application: String) -> (subject: String, body: String) {
        let name = application.isEmpty ? "Your" : "\(application):"
        return ("Your sign-in link", "\(name) sign-in code \(code). Or open \(link)")
    }

    /// The sign-in link message: the link and, beside it, the code (either completes the sign-in).
    static func signInLink(link: String, code: String, minutes: Int, application: String) -> (subject: String, body: String) {
        let name = application.isEmpty ? "" : " to \(application)"
        return (
            "Your sign-in link",
            "Open this link to sign in\(name):\n\n\(link)\n\nOr enter this code: \(code)\n\nBoth expire in \(minutes) minutes and work once. If you did not try to sign in, ignore this message."
        )
    }

    /// The message sent instead of a code to an identifier without an account: the owner learns
    /// of the attempt, and the answer takes the same path (and time) as for a known identifier.
    static func noAccount() -> (subject: String, body: String) {
        (
            "Sign-in attempt",
            "Someone tried to sign in with this address, but no account uses it. If it was you, sign up first. Otherwise, ignore this message."
        )
    }

    /// The notice to an address proved for the first time on an account that providers were
    /// linked to before: those sign-ins are paused until the owner keeps them.
    static func identitiesHeld(providers: [String], application: String) -> (subject: String, body: String) {
        let names = providers.joined(separator: ", ")
        return (
            "Check the sign-ins linked to your account",
            "You just proved this address for your \(application) account. Before that, sign-in through \(names) was linked to the account, by you or by someone else using your address. It is paused: if it was you, keep it in your account settings; if not, remove it there."
        )
    }

    /// The message sent instead of a code to a phone number another account already uses: the
    /// step that asked for it looks the same as for a free number, and no code can match.
    static func phoneInUse() -> (subject: String, body: String) {
        (
            "Phone number not added",
            "Someone tried to add this phone number to an account, but it already belongs to one. If it was you, use another number. Otherwise, ignore this message."
        )
    }
}
