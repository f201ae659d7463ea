import Foundation

/// What a browser sign-in asks the server for: where the browser comes back, the scopes, and the
/// optional hints of an OpenID Connect authorization request.
public struct BrowserSignInOptions: Sendable, Equatable {
    /// The scope of a sign-in's tokens when the app names none.
    public static let defaultScope = "openid email offline_access"

    /// Where the server sends the browser back: a redirect URI the application registered (a
    /// private-use scheme such as `com.example.app:/callback`, an `https` URL, or for a native
    /// desktop app a loopback `http://127.0.0.1:PORT/callback`, whose port may be any).
    public var redirectURI: URL
    /// The scopes, space separated; must hold `openid` (the SDK verifies the ID token).
    public var scope: String
    /// Where the `nonce` comes from: the SDK draws one by default, and checks it in the ID token.
    public var nonce: NonceChoice
    /// What the server must show even with a session in the browser (`prompt`); empty: nothing.
    public var prompt: [AuthorizationPrompt]
    /// The user's email address or phone number, to fill in (`login_hint`).
    public var loginHint: String?
    /// The longest time since the user last authenticated, in seconds, before they must again
    /// (`max_age`).
    public var maxAge: Int?
    /// The languages of the pages, most preferred first, as BCP 47 tags (`ui_locales`).
    public var uiLocales: [String]
    /// The authorization endpoint to use instead of the one the server's discovery document names.
    public var authorizationEndpoint: URL?

    /// Options for a sign-in through the browser.
    ///
    /// - Parameters:
    ///   - redirectURI: A redirect URI the application registered.
    ///   - scope: The scopes, space separated; ``defaultScope`` by default.
    ///   - nonce: Where the nonce comes from; ``NonceChoice/automatic`` by default.
    ///   - prompt: The `prompt` values; none by default.
    ///   - loginHint: The identifier to fill in, if any.
    ///   - maxAge: The most seconds since the last authentication, if any.
    ///   - uiLocales: The pages' languages, most preferred first.
    ///   - authorizationEndpoint: An endpoint to use instead of the discovered one.
    public init(
        redirectURI: URL, scope: String = BrowserSignInOptions.defaultScope, nonce: NonceChoice = .automatic,
        prompt: [AuthorizationPrompt] = [], loginHint: String? = nil, maxAge: Int? = nil, uiLocales: [String] = [],
        authorizationEndpoint: URL? = nil
    ) {
        self.redirectURI = redirectURI
        self.scope = scope
        self.nonce = nonce
        self.prompt = prompt
        self.loginHint = loginHint
        self.maxAge = maxAge
        self.uiLocales = uiLocales
        self.authorizationEndpoint = authorizationEndpoint
    }
}
