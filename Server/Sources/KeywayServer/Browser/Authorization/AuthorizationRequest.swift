import KeywayJOSE

/// A validated authorization request (RFC 6749 §4.1.1, OpenID Connect Core §3.1.2.1, RFC 7636),
/// kept as JSON while the browser signs in.
struct AuthorizationRequest: Codable, Sendable, Equatable {
    /// How the response reaches the client.
    enum ResponseMode: String, Codable, Sendable {
        case query
        case formPost = "form_post"
    }

    /// The `prompt` values the server honours.
    enum Prompt: String, Codable, Sendable, CaseIterable {
        case none, login, consent, create
    }

    var clientId: String
    var redirectURI: String
    var responseMode: ResponseMode
    /// The scopes asked for, each allowed for the client.
    var scope: [String]
    var state: String?
    var nonce: String?
    /// The S256 PKCE challenge; `nil` only for a confidential client that sent a `nonce` instead
    /// (RFC 9700 §2.1.1), or whose application does not require either (``ApplicationRecord/requirePkce``).
    var codeChallenge: String?
    var prompt: Set<Prompt>
    /// Seconds since the last active authentication beyond which the user signs in again.
    var maxAge: Int?
    var loginHint: String?
    var idTokenHint: String?
    var uiLocales: [String]

    var scopeText: String { scope.joined(separator: " ") }

    /// The longest value of a free-text parameter (`state`, `nonce`, `login_hint`…).
    static let maximumValueLength = 2048

    /// Parses `parameters` for `application`, whose registered redirect URIs are `registered`.
    ///
    /// Errors that cannot be sent to the client — an unknown client is handled before —, a
    /// missing, malformed or unregistered `redirect_uri`, come back as ``AuthorizationError/page``;
    /// every other as ``AuthorizationError/redirect``, to be sent to the redirect URI.
    static func parse(
        _ parameters: [String: String], application: ApplicationRecord, registered: [String]
    ) -> Result<AuthorizationRequest, AuthorizationError> {
        guard let redirectURI = parameters["redirect_uri"], !redirectURI.isEmpty else {
            return .failure(
                .page(
                    .invalidRedirectURI,
                    "The request names no redirect_uri, so Keyway cannot send you back to the application."))
        }
        guard RedirectURI.problem(with: redirectURI, publicClient: application.clientType == .public) == nil,
            RedirectURI.matches(redirectURI, registered: registered)
        else {
            return .failure(
                .page(
                    .invalidRedirectURI,
                    "The redirect_uri is not one the application registered, so Keyway will not send you there."))
        }
        let state = parameters["state"]
        var mode = ResponseMode.query
        func refuse(_ error: String, _ description: String) -> Result<AuthorizationRequest, AuthorizationError> {
            .failure(.redirect(error: error, description: description, redirectURI: redirectURI, mode: mode, state: state))
        }
        if let value = parameters["response_mode"] {
            guard let known = ResponseMode(rawValue: value) else {
                return refuse("invalid_request", "response_mode must be query or form_post.")
            }
            mode = known
        }
        for name in ["state", "nonce", "login_hint", "id_token_hint", "ui_locales", "acr_values"] {
            if let value = parameters[name], value.utf8.count > maximumValueLength {
                return refuse("invalid_request", "\(name) is longer than \(maximumValueLength) bytes.")
            }
        }
        if parameters["request"] != nil {
            return refuse("request_not_supported", "Request objects are not supported; send the parameters, or push them (PAR).")
        }
        if parameters["registration"] != nil {
            return refuse("registration_not_supported", "The registration parameter is not supported.")
        }
        guard let responseType = parameters["response_type"] else {
            return refuse("invalid_request", "response_type is required (code).")
        }
        guard responseType == "code" else {
            return refuse("unsupported_response_type", "Only the authorization code flow (response_type=code) is supported.")
        }
        let challenge = parameters["code_challenge"].flatMap { $0.isEmpty ? nil : $0 }
        if let challenge {
            guard parameters["code_challenge_method"] == PKCE.method else {
                return refuse("invalid_request", "code_challenge_method must be S256.")
            }
            guard PKCE.isValidS256Challenge(challenge) else {
                return refuse("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier (43 characters).")
            }
        } else if let problem = missingChallenge(parameters, application: application) {
            return refuse("invalid_request", problem)
        }
        let scope: [String]
        switch Scopes.parse(parameters["scope"], for: application) {
        case .success(let parsed): scope = parsed
        case .failure(let refusal): return refuse("invalid_scope", refusal.description)
        }
        var prompt = Set<Prompt>()
        for value in (parameters["prompt"] ?? "").split(separator: " ") {
            if value == "select_account" {
                return refuse(
                    "invalid_request",
                    "prompt=select_account is not supported: a browser is signed in to one account at a time.")
            }
            guard let known = Prompt(rawValue: String(value)) else {
                return refuse("invalid_request", "Unknown prompt value \(value); supported: none, login, consent, create.")
            }
            prompt.insert(known)
        }
        if prompt.contains(.none), prompt.count > 1 {
            return refuse("invalid_request", "prompt=none cannot be combined with other prompt values.")
        }
        var maxAge: Int?
        if let value = parameters["max_age"] {
            guard let seconds = Int(value), seconds >= 0, value.utf8.allSatisfy({ (48...57).contains($0) }) else {
                return refuse("invalid_request", "max_age is a number of seconds (0 or more).")
            }
            maxAge = seconds
        }
        if let nonce = parameters["nonce"], nonce.isEmpty {
            return refuse("invalid_request", "nonce, when sent, is not empty.")
        }
        return .success(
            AuthorizationRequest(
                clientId: application.configId, redirectURI: redirectURI, responseMode: mode, scope: scope,
                state: state, nonce: parameters["nonce"], codeChallenge: challenge, prompt: prompt, maxAge: maxAge,
                loginHint: parameters["login_hint"].flatMap { $0.isEmpty ? nil : $0 },
                idTokenHint: parameters["id_token_hint"].flatMap { $0.isEmpty ? nil : $0 },
                uiLocales: (parameters["ui_locales"] ?? "").split(separator: " ").map(String.init)))
    }

    /// Why a request without `code_challenge` is refused, or `nil` when it may go on. A public
    /// client always needs PKCE. A confidential client may send a `nonce` instead (RFC 9700
    /// §2.1.1: the ID token's nonce then binds the code to the session), or neither when its
    /// application does not require it (``ApplicationRecord/requirePkce``, for relying parties
    /// written before PKCE).
    static func missingChallenge(_ parameters: [String: String], application: ApplicationRecord) -> String? {
        if parameters["code_challenge_method"].map({ !$0.isEmpty }) == true {
            return "code_challenge_method was sent without a code_challenge."
        }
        switch application.clientType {
        case .public:
            return "code_challenge is required: PKCE (S256) is mandatory for public clients."
        case .confidential:
            let nonce = parameters["nonce"].flatMap { $0.isEmpty ? nil : $0 }
            guard application.requirePkce, nonce == nil else { return nil }
            return "Send a code_challenge (PKCE, S256) or a nonce: this client needs one of them."
        }
    }
}

/// Why an authorization request is refused, and where the refusal goes.
enum AuthorizationError: Error, Sendable, Equatable {
    /// Shown to the user as a page: the client cannot be trusted with a redirect.
    case page(AuthorizationPageError, String)
    /// Sent to the client's redirect URI (RFC 6749 §4.1.2.1).
    case redirect(
        error: String, description: String, redirectURI: String, mode: AuthorizationRequest.ResponseMode,
        state: String?)
}

/// The errors shown as a page instead of a redirect.
enum AuthorizationPageError: String, Sendable, Equatable {
    case unknownClient = "unknown_client"
    case invalidRedirectURI = "invalid_redirect_uri"
    case invalidRequest = "invalid_request"
    case expiredFlow = "flow_expired"
    case forbidden = "forbidden"
}
