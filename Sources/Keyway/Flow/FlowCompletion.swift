import Foundation
import KeywayProtocol

/// Everything about a completed flow that redeeming its code needs: the code and its PKCE
/// verifier, and the OpenID Connect parameters the flow was started with — the `nonce` its ID
/// token must carry, the `redirect_uri` to repeat, the `state` that came back.
///
/// Read it from ``KeywayFlow/completion`` after ``FlowUpdate/completed(session:authCode:expiresAt:codeVerifier:meta:)``.
/// By default the SDK has redeemed it already and saved the tokens in ``KeywayClient/session``
/// (``tokens``); with ``CompletedSignIns/handOver``, redeem it with ``KeywayTokens/exchange(_:)``
/// or hand its fields to your backend.
public struct FlowCompletion: Sendable, Equatable {
    /// The session the flow created (the tokens' `sid`).
    public var session: String
    /// The authorization code.
    public var authCode: Sensitive<String>
    /// When the code expires.
    public var expiresAt: Date
    /// The PKCE verifier, when the SDK generated the challenge.
    public var codeVerifier: Sensitive<String>?
    /// The `nonce` the flow was started with: the ID token must carry it.
    public var nonce: String?
    /// The redirect URI the flow was started with: the code is redeemed with it.
    public var redirectURI: URL?
    /// The scope the flow was started with (`nil`: the server's default).
    public var scope: String?
    /// The `state` the server handed back — the one the flow was started with (the SDK checked).
    public var state: String?
    /// Whether the flow created the user, when the server says.
    public var newUser: Bool?
    /// The completion's metadata (trace ID).
    public var meta: Meta
    /// The tokens saved in ``KeywayClient/session`` for this completion
    /// (``CompletedSignIns/saveToSession``); `nil` when the completion was handed over.
    public internal(set) var tokens: TokenSet?

    /// A completion with the given values.
    ///
    /// - Parameters:
    ///   - session: The session the flow created.
    ///   - authCode: The authorization code.
    ///   - expiresAt: When the code expires.
    ///   - codeVerifier: The PKCE verifier, if the SDK made the challenge.
    ///   - nonce: The nonce the ID token must carry, if one was sent.
    ///   - redirectURI: The redirect URI to redeem the code with, if one was sent.
    ///   - scope: The scope asked for, if any.
    ///   - state: The state handed back, if any.
    ///   - newUser: Whether the flow created the user.
    ///   - meta: The completion's metadata.
    init(
        session: String, authCode: Sensitive<String>, expiresAt: Date, codeVerifier: Sensitive<String>?,
        nonce: String? = nil, redirectURI: URL? = nil, scope: String? = nil, state: String? = nil,
        newUser: Bool? = nil, meta: Meta
    ) {
        self.session = session
        self.authCode = authCode
        self.expiresAt = expiresAt
        self.codeVerifier = codeVerifier
        self.nonce = nonce
        self.redirectURI = redirectURI
        self.scope = scope
        self.state = state
        self.newUser = newUser
        self.meta = meta
    }
}
