import Foundation
import KeywayProtocol

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Keyway SDK's entry point: starts flows against a Keyway server and redeems their result.
/// (Named apart from the `Keyway` module, so `Keyway.SomeType` always means the module's type.)
///
/// ```swift
/// let keyway = try KeywayClient(configID: "cfg_…", baseURL: URL(string: "https://auth.example.com")!)
/// keyway.flow.onUpdate = { update in … }
/// await keyway.flow.start(flowType: .signin, identifier: "alice@example.com")
/// await keyway.flow.submitCode("123456")
/// ```
public final class KeywayClient: Sendable {
    /// The SDK version.
    public static let version = "0.1.0"

    /// The application's config ID (its OAuth `client_id`).
    public let configID: String

    /// The normalized server URL.
    public let server: ServerURL
    /// The options the SDK was created with.
    public let options: KeywayOptions
    /// The flow: observe it and answer its prompts.
    public let flow: KeywayFlow

    let tokenClient: TokenClient
    let eventBroadcaster: EventBroadcaster
    let logger: KeywayLogger

    /// A new stream of the SDK's events from now on (sign-in started, completed or failed, tokens
    /// refreshed, signed out, session expired, profile saved). Each access makes a new stream.
    public var events: AsyncStream<KeywayEvent> { eventBroadcaster.stream() }

    /// Receives every event too; held weakly.
    public var eventDelegate: (any KeywayEventDelegate)? {
        get { eventBroadcaster.delegate }
        set { eventBroadcaster.delegate = newValue }
    }

    /// Creates the SDK.
    ///
    /// - Parameters:
    ///   - configID: The application's config ID (its OAuth `client_id`); spaces around it are
    ///     trimmed.
    ///   - baseURL: The server root or its `/v1` URL, with or without a trailing slash.
    ///   - options: The SDK's options.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` for a config ID that is empty, longer than
    ///   128 bytes or holds whitespace, a ``KeywayOptions/relyingParty`` that is empty or holds a
    ///   line break, or an unusable URL (see ``ServerURL/init(_:)``).
    public init(configID: String, baseURL: URL, options: KeywayOptions = KeywayOptions()) throws {
        let configId = configID.trimmingCharacters(in: .whitespaces)
        guard !configId.isEmpty, configId.utf8.count <= 128,
            !configId.contains(where: { $0.isNewline || $0.isWhitespace })
        else { throw KeywayError.invalidConfiguration("The config ID is empty or malformed.") }
        if let relyingParty = options.relyingParty,
            relyingParty.isEmpty || relyingParty.contains(where: \.isNewline)
        {
            throw KeywayError.invalidConfiguration("The relying party must be a non-empty single line.")
        }
        self.configID = configId
        self.server = try ServerURL(baseURL)
        self.options = options
        let logger = KeywayLogger(configuration: options.logging, clock: options.clock)
        self.logger = logger
        // The clients send through the interceptors and the logging, then the app's transport.
        var instrumented = options
        instrumented.transport = InstrumentedTransport(
            inner: options.transport, interceptors: options.requestInterceptors, logger: logger)
        let client = ProtocolClient(server: server, configId: configId, options: instrumented)
        let events = EventBroadcaster(clock: options.clock)
        self.eventBroadcaster = events
        let serverURL = server
        let appAttest = options.appAttest.map {
            AppAttestAgent(
                options: $0, server: serverURL, configId: configId, transport: instrumented.transport,
                clock: options.clock, logger: logger)
        }
        self.flow = KeywayFlow(
            driver: FlowDriver(client: client, options: instrumented, events: events, logger: logger, appAttest: appAttest))
        self.tokenClient = TokenClient(server: server, configId: configId, options: instrumented, appAttest: appAttest)
        events.owner = self
    }

    /// Redeems an authorization code at the token endpoint and verifies the ID token (signature
    /// against the server's JWKS, `iss`, `aud`, `exp`, `iat`, `at_hash`, and `nonce` when the
    /// flow sent one).
    ///
    /// For public applications only: the recommended path is to send `authCode` and
    /// `codeVerifier` to your backend and redeem them there. When `authCode` is the code of the
    /// latest flow this client completed (``KeywayFlow/completion``), the flow's redirect URI is
    /// sent with it and its nonce checked, as ``exchange(_:)`` does.
    ///
    /// - Parameters:
    ///   - authCode: The code of the completed flow (``FlowUpdate/completed(session:authCode:expiresAt:codeVerifier:meta:)``).
    ///   - codeVerifier: The PKCE verifier of the flow.
    /// - Returns: The verified tokens.
    /// - Throws: ``KeywayError``: `oauth` with the server's error (`invalid_grant` for a used or
    ///   expired code), `invalidIDToken` (a `nonce` other than the flow's among the reasons),
    ///   `networkFailure`, `invalidResponse` for an answer the SDK cannot read,
    ///   `invalidConfiguration` for an empty code or a malformed verifier.
    public func exchange(authCode: Sensitive<String>, codeVerifier: Sensitive<String>) async throws -> TokenSet {
        let completion = await flow.driver.completion(for: authCode)
        return try await tokenClient.exchange(
            authCode: authCode, codeVerifier: codeVerifier, redirectURI: completion?.redirectURI?.absoluteString,
            nonce: completion?.nonce)
    }

    /// Redeems a completed flow's code (``KeywayFlow/completion``): with its PKCE verifier and its
    /// redirect URI, checking that the ID token carries its nonce.
    ///
    /// - Parameter completion: The completed flow.
    /// - Returns: The verified tokens.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` when the completion has no verifier (the
    ///   challenge was made elsewhere: redeem it there), and what
    ///   ``exchange(authCode:codeVerifier:redirectURI:nonce:)`` throws.
    public func exchange(_ completion: FlowCompletion) async throws -> TokenSet {
        guard let codeVerifier = completion.codeVerifier else {
            throw KeywayError.invalidConfiguration("The flow's PKCE challenge was made elsewhere; redeem its code there.")
        }
        return try await tokenClient.exchange(
            authCode: completion.authCode, codeVerifier: codeVerifier,
            redirectURI: completion.redirectURI?.absoluteString, nonce: completion.nonce)
    }

    /// Redeems an authorization code obtained with a redirect URI and a nonce, whatever obtained
    /// it: `redirect_uri` is repeated at the token endpoint (RFC 6749 §4.1.3) and the ID token
    /// must carry `nonce`.
    ///
    /// - Parameters:
    ///   - authCode: The authorization code.
    ///   - codeVerifier: Its PKCE verifier.
    ///   - redirectURI: The redirect URI the code was obtained with, or `nil` when none was sent.
    ///   - nonce: The nonce the sign-in was started with, or `nil` when none was sent (the claim
    ///     is then not checked).
    /// - Returns: The verified tokens.
    /// - Throws: ``KeywayError``, as ``exchange(authCode:codeVerifier:)``.
    public func exchange(
        authCode: Sensitive<String>, codeVerifier: Sensitive<String>, redirectURI: URL?, nonce: String?
    ) async throws -> TokenSet {
        try await tokenClient.exchange(
            authCode: authCode, codeVerifier: codeVerifier, redirectURI: redirectURI?.absoluteString, nonce: nonce)
    }

    /// Exchanges a JWT from another authentication system for Keyway tokens (RFC 8693 token
    /// exchange), the path for moving signed-in users over without asking them to sign in again.
    ///
    /// The server accepts tokens from issuers it has been told to trust, verifies them against
    /// that issuer's keys, audience and expiry, and answers tokens for the linked user (linking
    /// or creating the user on the first exchange, as the server is configured). The new ID token
    /// is verified as ``exchange(authCode:codeVerifier:)`` does; a refused token throws
    /// ``KeywayError/oauth(status:error:)`` with `invalid_grant`.
    ///
    /// - Parameters:
    ///   - externalToken: The other system's JWT.
    ///   - type: What it is: an access token (`.jwt`) or an ID token (`.idToken`).
    /// - Returns: The verified Keyway tokens.
    /// - Throws: ``KeywayError``.
    public func exchange(externalToken: Sensitive<String>, type: ExternalTokenType = .jwt) async throws -> TokenSet {
        try await tokenClient.exchange(externalToken: externalToken, type: type)
    }

    /// Verifies a token response the app's backend obtained and handed over (the backend path:
    /// the backend redeemed the code with its secret), as ``exchange(authCode:codeVerifier:)``
    /// verifies its own: the ID token's signature against the server's key set, `iss`, `aud`
    /// (this SDK's config ID), `exp`, `iat`, `at_hash`. Save the result in a ``KeywaySession``.
    ///
    /// - Parameter tokens: The token response the backend handed over.
    /// - Returns: The verified tokens.
    /// - Throws: ``KeywayError/invalidIDToken(_:)``, or ``KeywayError/networkFailure(_:)`` when
    ///   the key set cannot be fetched.
    public func verify(_ tokens: TokenResponse) async throws -> TokenSet {
        try await tokenClient.verify(tokens)
    }

    /// Trades a refresh token for fresh tokens (public applications), verifying the new ID token
    /// as ``exchange(authCode:codeVerifier:)`` does.
    ///
    /// Refresh tokens rotate: the answer's `refreshToken` replaces the one presented, which is
    /// spent. Store the new one before discarding the old; presenting a spent token again after
    /// the server's short grace period revokes every token of the sign-in.
    ///
    /// - Parameter refreshToken: The current refresh token.
    /// - Returns: The new, verified tokens.
    /// - Throws: ``KeywayError/oauth(status:error:)`` (`invalid_grant`: the token is dead, sign
    ///   in again), `invalidIDToken`, `networkFailure`.
    public func refresh(refreshToken: Sensitive<String>) async throws -> TokenSet {
        try await tokenClient.refresh(refreshToken: refreshToken)
    }

    /// Revokes a refresh token or an access token of this application (RFC 7009). Revoking a
    /// refresh token ends its sign-in: every token of it, access tokens included, stops being
    /// accepted. Revoking a token the server does not know succeeds too.
    ///
    /// - Parameter token: A refresh token or an access token.
    /// - Throws: ``KeywayError``: `networkFailure`, or `oauth` when the server refuses the client.
    public func revoke(token: Sensitive<String>) async throws {
        try await tokenClient.revoke(token: token)
    }

    /// Adds the access token to a request for the app's own API: `Authorization: Bearer …`, or
    /// for a DPoP-bound token `Authorization: DPoP …` with a fresh `DPoP` proof for the request's
    /// method and URL, bound to the token (`ath`). When the API answers `401` with a `DPoP-Nonce`
    /// header, build the request again with that `dpopNonce`.
    ///
    /// - Parameters:
    ///   - request: The request to the app's API, with its absolute URL and method.
    ///   - accessToken: A valid access token (``KeywaySession/accessToken(account:throwIfMissing:)``).
    ///   - dpopNonce: The nonce the API asked for in `DPoP-Nonce`, on a retry.
    /// - Returns: The request with its `Authorization` (and `DPoP`) headers.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` for a request without a URL, a malformed
    ///   token, or a bound token without ``KeywayOptions/dpopKey``.
    public func authorizedRequest(
        _ request: URLRequest, accessToken: Sensitive<String>, dpopNonce: String? = nil
    ) async throws -> URLRequest {
        guard let url = request.url, url.scheme != nil, url.host != nil else {
            throw KeywayError.invalidConfiguration("The request has no absolute URL.")
        }
        if let dpopNonce, dpopNonce.isEmpty || !dpopNonce.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
            throw KeywayError.invalidConfiguration("The DPoP nonce is malformed.")
        }
        let headers = try await tokenClient.authorizationHeaders(
            method: request.httpMethod ?? "GET", url: url, accessToken: accessToken, nonce: dpopNonce)
        var authorized = request
        for (name, value) in headers { authorized.setValue(value, forHTTPHeaderField: name) }
        return authorized
    }

    /// The signed-in user's claims from the OpenID Connect UserInfo endpoint.
    ///
    /// - Parameter accessToken: A valid access token with the `openid` scope.
    /// - Returns: The user's subject and the claims of the token's other scopes: the email address
    ///   with `email`, the phone number with `phone`, the standard profile claims
    ///   (``UserInfo/profile``) with `profile`.
    /// - Throws: ``KeywayError/oauth(status:error:)`` (`invalid_token`), `networkFailure`.
    public func userInfo(accessToken: Sensitive<String>) async throws -> UserInfo {
        try await tokenClient.userInfo(accessToken: accessToken)
    }

    /// The signed-in user's profile (`GET /v1/me`) with the project's field schema.
    ///
    /// - Parameter accessToken: A valid access token.
    /// - Returns: The profile and the schema.
    /// - Throws: ``KeywayError``.
    public func profile(accessToken: Sensitive<String>) async throws -> UserProfileDocument {
        try await tokenClient.profile(accessToken: accessToken)
    }

    /// Changes profile fields (`PATCH /v1/me`, a merge patch: `nil` removes a field) and returns
    /// the saved profile. Invalid fields throw ``KeywayError/problem(_:)`` with `invalidFields`,
    /// and nothing is saved. Encrypt encrypted fields with ``ProfileCipher`` first.
    ///
    /// - Parameters:
    ///   - accessToken: A valid access token.
    ///   - changes: The fields to set, and `nil` for those to remove.
    /// - Returns: The saved profile.
    /// - Throws: ``KeywayError/problem(_:)`` with `invalidFields`, or another ``KeywayError``.
    public func updateProfile(accessToken: Sensitive<String>, changes: [String: ProfileValue?]) async throws
        -> UserProfileDocument
    {
        let document = try await tokenClient.updateProfile(accessToken: accessToken, changes: changes)
        eventBroadcaster.emit(.userDataSaved, ["fields": changes.keys.sorted().joined(separator: ",")])
        return document
    }

    /// Signs the user out on every device and app: all of the user's sessions and refresh tokens
    /// are revoked, and access tokens stop being accepted by `userInfo` and introspection.
    ///
    /// - Parameter accessToken: A valid access token of the user.
    /// - Throws: ``KeywayError``.
    public func signOutEverywhere(accessToken: Sensitive<String>) async throws {
        try await tokenClient.signOutEverywhere(accessToken: accessToken)
    }
}
