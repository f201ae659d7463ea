import Foundation
import KeywayJOSE
import KeywayProtocol

/// The OpenID Connect parameters of a flow: the scopes its tokens are for, the `nonce` its ID
/// token must carry, a redirect URI the application registered, and an opaque `state` the
/// completion hands back. Pass them to ``KeywayFlow/start(flowType:identifier:startToken:inviteCode:codeChallenge:options:)``.
///
/// The defaults ask for what a sign-in always had (`openid email offline_access`) with a nonce
/// the SDK draws and checks; nothing else is sent.
public struct FlowStartOptions: Sendable, Equatable {
    /// The scopes asked for, space separated (RFC 6749 §3.3), or `nil` for the server's default
    /// (`openid email offline_access`). Each must be allowed for the application, or the flow
    /// fails with `invalid_scope`. Without `offline_access` no refresh token is issued.
    public var scope: String?
    /// Where the `nonce` comes from (the SDK draws one by default).
    public var nonce: NonceChoice
    /// A redirect URI the application registered, when the app wants the code tied to it: the
    /// server refuses an unregistered one (`invalid_redirect_uri`), and the code is redeemed with
    /// the same `redirect_uri` (the SDK does it in ``KeywayTokens/exchange(authCode:codeVerifier:)``).
    public var redirectURI: URL?
    /// An opaque value (1 to 2,048 bytes) handed back unchanged in the completion
    /// (``FlowCompletion/state``); the SDK checks that it came back.
    public var state: String?

    /// Options with a space-separated scope.
    ///
    /// - Parameters:
    ///   - scope: The scopes, space separated (`"openid email"`), or `nil` for the server's default.
    ///   - nonce: Where the nonce comes from; ``NonceChoice/automatic`` by default.
    ///   - redirectURI: A registered redirect URI, or `nil`.
    ///   - state: An opaque value to get back in the completion, or `nil`.
    public init(scope: String? = nil, nonce: NonceChoice = .automatic, redirectURI: URL? = nil, state: String? = nil) {
        self.scope = scope
        self.nonce = nonce
        self.redirectURI = redirectURI
        self.state = state
    }

    /// Options with a set of scopes, sent `openid` first, then in alphabetical order.
    ///
    /// - Parameters:
    ///   - scopes: The scopes (`["openid", "email"]`).
    ///   - nonce: Where the nonce comes from; ``NonceChoice/automatic`` by default.
    ///   - redirectURI: A registered redirect URI, or `nil`.
    ///   - state: An opaque value to get back in the completion, or `nil`.
    public init(scopes: Set<String>, nonce: NonceChoice = .automatic, redirectURI: URL? = nil, state: String? = nil) {
        self.init(scope: Self.join(scopes), nonce: nonce, redirectURI: redirectURI, state: state)
    }

    /// The scopes of ``scope`` as a set; `nil` for the server's default.
    var scopeTokens: Set<String>? {
        scope.map { Set($0.split(separator: " ").map(String.init)) }
    }

    /// `openid` first, then the others in alphabetical order, space separated.
    static func join(_ scopes: Set<String>) -> String {
        ((scopes.contains("openid") ? ["openid"] : []) + scopes.subtracting(["openid"]).sorted()).joined(separator: " ")
    }

    /// The most bytes of a `nonce` or `state`, as the server accepts.
    static let maximumValueLength = 2048

    /// What is wrong with the options, field by field (empty when they can be sent).
    var invalidFields: [InvalidField] {
        var invalid: [InvalidField] = []
        if let scope, !Self.isValidScope(scope) {
            invalid.append(
                InvalidField(name: "scope", reason: "Scopes are 1 to 20 space-separated tokens of printable ASCII without \" or \\."))
        }
        if case .value(let nonce) = nonce, !Self.isValidValue(nonce) {
            invalid.append(InvalidField(name: "nonce", reason: "Send 1 to \(Self.maximumValueLength) bytes."))
        }
        if let state, !Self.isValidValue(state) {
            invalid.append(InvalidField(name: "state", reason: "Send 1 to \(Self.maximumValueLength) bytes."))
        }
        if let redirectURI, redirectURI.scheme == nil || redirectURI.absoluteString.utf8.count > 2000 {
            invalid.append(InvalidField(name: "redirectUri", reason: "A redirect URI is absolute (scheme:…)."))
        }
        return invalid
    }

    /// The nonce to send: drawn from `random` under ``NonceChoice/automatic`` when a sign-in or
    /// sign-up's tokens include an ID token (no scope: the default holds `openid`; or a scope
    /// with `openid`). Account management renews the tokens of a sign-in the user already made:
    /// it gets the app's own nonce only.
    func resolvedNonce(random: any KeywayRandom, flowType: FlowType) -> String? {
        switch nonce {
        case .value(let value): return value
        case .omitted: return nil
        case .automatic:
            guard flowType == .signin || flowType == .signup, scopeTokens?.contains("openid") ?? true else { return nil }
            return NonceChoice.draw(random)
        }
    }

    /// RFC 6749 §3.3: `scope-token = 1*NQCHAR`, space separated; at most 20, 1,000 bytes.
    static func isValidScope(_ scope: String) -> Bool {
        let tokens = scope.split(separator: " ", omittingEmptySubsequences: true)
        return !tokens.isEmpty && tokens.count <= 20 && scope.utf8.count <= 1000
            && tokens.allSatisfy { token in
                token.unicodeScalars.allSatisfy {
                    $0.value == 0x21 || (0x23...0x5B).contains($0.value) || (0x5D...0x7E).contains($0.value)
                }
            }
    }

    static func isValidValue(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= maximumValueLength
    }
}

/// Where the `nonce` of a sign-in comes from (OpenID Connect Core §3.1.2.1). The ID token must
/// carry the nonce sent, and the SDK checks it when it redeems the code.
public enum NonceChoice: Sendable, Equatable {
    /// The SDK draws one (32 random bytes, base64url: 43 characters) for a sign-in or a sign-up
    /// whose tokens include an ID token — no scope given, or a scope with `openid` — and checks
    /// it. (An account-management flow renews an existing sign-in's tokens: none is drawn.)
    case automatic
    /// This value (1 to 2,048 bytes), for an app whose backend made it; the SDK checks it too.
    case value(String)
    /// No nonce is sent and none is checked.
    case omitted

    /// 32 random bytes, base64url.
    static func draw(_ random: any KeywayRandom) -> String {
        Base64URL.encode(random.bytes(32))
    }
}
