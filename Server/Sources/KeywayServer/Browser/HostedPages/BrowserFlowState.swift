import KeywayProtocol

/// What a visit to the hosted pages is doing, kept as JSON in its row (``BrowserFlowRecord``).
struct BrowserFlowState: Codable, Sendable, Equatable {
    /// Why the browser is on the hosted pages.
    enum Purpose: String, Codable, Sendable {
        /// Signing in (or up) for an authorization request.
        case authorize
        /// Managing the signed-in account.
        case account
        /// Confirming a sign-out an application asked for without a valid `id_token_hint`.
        case logout
    }

    var purpose: Purpose
    /// The authorization request served (`authorize`).
    var request: AuthorizationRequest?
    /// The flow the pages drive, once started.
    var flowId: String?
    /// Its flow token, sealed to this visit.
    var sealedFlowToken: String?
    /// `signIn` or `signup`.
    var flowType: String?
    /// The identifier typed, shown again after a refusal.
    var identifier: String?
    /// The refusal of the last answer, shown once on the next page.
    var flash: Flash?
    /// Signed in, waiting for the user's consent: the browser session that signed in.
    var consentFor: String?
    /// Where to send the browser after signing out (`logout`), and the `state` to hand back.
    var logout: LogoutTarget?
    /// The challenge of the identifier page's passkey sign-in (base64url): the flow a passkey
    /// starts there takes it as its own; spent by the first answer.
    var passkeyChallenge: String?

    /// A refusal to show on the next page.
    struct Flash: Codable, Sendable, Equatable {
        var message: String
        /// Errors of single fields, by field name.
        var fields: [String: String] = [:]
    }

    /// The post-logout redirect of a sign-out to confirm.
    struct LogoutTarget: Codable, Sendable, Equatable {
        var redirectURI: String?
        var state: String?
        /// The application that asked, by config ID.
        var clientId: String?
    }
}
