/// A `prompt` value of an authorization request (OpenID Connect Core §3.1.2.1, and `create` from
/// OpenID Connect Prompt Create 1.0): what the server must show even when the browser is signed in.
public struct AuthorizationPrompt: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The value as sent.
    public let rawValue: String

    /// A prompt value by its name, for values this SDK does not list.
    ///
    /// - Parameter rawValue: The value as sent (`login`).
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Show nothing: fail with `login_required` (or `consent_required`, `interaction_required`)
    /// when the user would have to act. Sent alone.
    public static let none = AuthorizationPrompt(rawValue: "none")
    /// Ask the user to sign in again, even with a session in the browser.
    public static let login = AuthorizationPrompt(rawValue: "login")
    /// Ask the user to consent again.
    public static let consent = AuthorizationPrompt(rawValue: "consent")
    /// Let the user choose among the accounts signed in in the browser.
    public static let selectAccount = AuthorizationPrompt(rawValue: "select_account")
    /// Open on sign-up rather than sign-in.
    public static let create = AuthorizationPrompt(rawValue: "create")

    /// The value as sent.
    public var description: String { rawValue }
}
