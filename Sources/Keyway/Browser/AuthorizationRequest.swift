import Foundation
import KeywayJOSE
import KeywayProtocol

/// One OpenID Connect authorization request (the authorization code flow with PKCE, RFC 6749
/// §4.1, RFC 7636, OpenID Connect Core §3.1.2) and what checking its answer takes: a fresh PKCE
/// verifier and its S256 challenge, a random `state`, a random `nonce`, and the authorize URL
/// that carries them.
///
/// ``KeywayBrowser/signIn(using:options:session:)`` makes one and runs it; an app that brings the
/// callback back itself (a universal link, a scene's `onOpenURL`) makes one with
/// ``KeywayBrowser/authorizationRequest(_:)``, opens ``url``, and hands the callback to
/// ``KeywayBrowser/complete(_:callbackURL:session:)``. Keep it until then: it is the only copy of
/// the verifier.
public struct AuthorizationRequest: Sendable, Equatable {
    /// The endpoint the browser is sent to.
    let authorizationEndpoint: URL
    /// The server's issuer: the callback's `iss` must be it.
    let issuer: String
    /// Whether the callback must carry `iss` (the server advertises
    /// `authorization_response_iss_parameter_supported`, RFC 9207).
    let requiresIssuer: Bool
    /// The application's config ID (`client_id`).
    let clientID: String
    /// The redirect URI (`redirect_uri`), repeated when the code is redeemed.
    public let redirectURI: URL
    /// The scopes asked for, space separated.
    let scope: String
    /// The random `state` (32 bytes, base64url) the callback must carry back.
    public let state: String
    /// The `nonce` the ID token must carry, when one is sent.
    public let nonce: String?
    /// The PKCE verifier (32 random bytes, base64url: 43 characters); never leaves the app but
    /// for the token endpoint.
    let codeVerifier: Sensitive<String>
    /// The S256 challenge of ``codeVerifier`` (`code_challenge`).
    let codeChallenge: String
    /// The `prompt` values.
    let prompt: [AuthorizationPrompt]
    /// The `login_hint`.
    let loginHint: String?
    /// The `max_age`, in seconds.
    let maxAge: Int?
    /// The `ui_locales`, most preferred first.
    let uiLocales: [String]
    /// The `response_mode`: always `query` (the callback's parameters in its query).
    let responseMode: String

    /// Makes a request with fresh secrets.
    ///
    /// - Parameters:
    ///   - issuer: The server's issuer (as its discovery document names it).
    ///   - authorizationEndpoint: The endpoint the browser is sent to.
    ///   - clientID: The application's config ID.
    ///   - options: The redirect URI, scopes and hints.
    ///   - requiresIssuer: Whether the callback must carry `iss`.
    ///   - random: Where the verifier, `state` and `nonce` come from (the system CSPRNG by default).
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` for a redirect URI that is not absolute
    ///   or has a fragment, an endpoint that is not `http(s)`, a scope without `openid` or
    ///   malformed, a `prompt` of `none` with other values, a negative `max_age`, an empty or
    ///   over-long hint, locale or nonce.
    init(
        issuer: String, authorizationEndpoint: URL, clientID: String, options: BrowserSignInOptions,
        requiresIssuer: Bool = false, random: any KeywayRandom = SystemKeywayRandom()
    ) throws(KeywayError) {
        guard let scheme = authorizationEndpoint.scheme?.lowercased(), ["http", "https"].contains(scheme),
            authorizationEndpoint.host != nil, authorizationEndpoint.fragment == nil
        else { throw .invalidConfiguration("The authorization endpoint must be an http(s) URL without a fragment.") }
        let redirect = options.redirectURI
        guard redirect.scheme != nil, redirect.fragment == nil, !redirect.absoluteString.contains("#"),
            redirect.absoluteString.utf8.count <= 2000
        else { throw .invalidConfiguration("The redirect URI must be an absolute URI without a fragment.") }
        let scopes = options.scope.split(separator: " ").map(String.init)
        guard FlowStartOptions.isValidScope(options.scope), scopes.contains("openid") else {
            throw .invalidConfiguration("The scope must be space-separated scope tokens including openid.")
        }
        guard !options.prompt.contains(.none) || options.prompt.count == 1 else {
            throw .invalidConfiguration("The prompt none cannot be combined with other values.")
        }
        guard options.prompt.allSatisfy({ FlowStartOptions.isValidScope($0.rawValue) && !$0.rawValue.contains(" ") })
        else { throw .invalidConfiguration("A prompt value is malformed.") }
        if let maxAge = options.maxAge, maxAge < 0 { throw .invalidConfiguration("max_age cannot be negative.") }
        if let hint = options.loginHint, !FlowStartOptions.isValidValue(hint) {
            throw .invalidConfiguration("The login hint must be 1 to 2,048 bytes.")
        }
        guard options.uiLocales.allSatisfy({ FlowStartOptions.isValidScope($0) && !$0.contains(" ") }) else {
            throw .invalidConfiguration("A UI locale is malformed (a BCP 47 tag such as en-GB).")
        }
        let nonce: String?
        switch options.nonce {
        case .automatic: nonce = NonceChoice.draw(random)
        case .value(let value):
            guard FlowStartOptions.isValidValue(value) else { throw .invalidConfiguration("The nonce must be 1 to 2,048 bytes.") }
            nonce = value
        case .omitted: nonce = nil
        }
        let verifier = Base64URL.encode(random.bytes(32))
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.requiresIssuer = requiresIssuer
        self.clientID = clientID
        self.redirectURI = redirect
        self.scope = scopes.joined(separator: " ")
        self.state = Base64URL.encode(random.bytes(32))
        self.nonce = nonce
        self.codeVerifier = Sensitive(verifier)
        self.codeChallenge = PKCE.challenge(for: verifier)
        self.prompt = options.prompt
        self.loginHint = options.loginHint
        self.maxAge = options.maxAge
        self.uiLocales = options.uiLocales
        self.responseMode = "query"
    }

    /// The query parameters, in the order they are sent.
    var parameters: [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI.absoluteString),
            ("scope", scope), ("state", state),
        ]
        if let nonce { parameters.append(("nonce", nonce)) }
        parameters += [("code_challenge", codeChallenge), ("code_challenge_method", PKCE.method)]
        if !prompt.isEmpty { parameters.append(("prompt", prompt.map(\.rawValue).joined(separator: " "))) }
        if let loginHint { parameters.append(("login_hint", loginHint)) }
        if let maxAge { parameters.append(("max_age", String(maxAge))) }
        if !uiLocales.isEmpty { parameters.append(("ui_locales", uiLocales.joined(separator: " "))) }
        parameters.append(("response_mode", responseMode))
        return parameters
    }

    /// The authorize URL: the endpoint with the parameters in its query, every character but the
    /// unreserved ones (`A–Z a–z 0–9 - . _ ~`) percent-encoded (a space as `%20`, `+` as `%2B`).
    public var url: URL {
        let query = parameters.map { "\($0.name)=\(Self.percentEncoded($0.value))" }.joined(separator: "&")
        var base = authorizationEndpoint.absoluteString
        base += authorizationEndpoint.query == nil ? "?" : "&"
        // Every character of the query is ASCII and allowed in a URL: this cannot fail.
        return URL(string: base + query) ?? authorizationEndpoint
    }

    /// RFC 3986 §2.3 unreserved characters stay; everything else is percent-encoded (UTF-8).
    static func percentEncoded(_ value: String) -> String {
        var encoded = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(hex[Int(byte >> 4)])
                encoded.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return encoded
    }
}
