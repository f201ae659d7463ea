import Foundation
import KeywayProtocol

/// Sign-in through the browser: the server's hosted pages, by the standard OpenID Connect
/// authorization code flow with PKCE, next to the native flow of ``KeywayClient/flow``. Obtain it
/// from ``KeywayClient/browser``.
///
/// The result is the same as a native sign-in's: verified tokens (the ID token's `nonce` checked),
/// saved in a ``KeywaySession`` when one is given, with the same events.
public struct KeywayBrowser: Sendable {
    let client: KeywayClient

    /// Signs the user in through `browser`: makes an ``AuthorizationRequest``, has the browser
    /// open it, checks the callback, redeems the code with the verifier and the redirect URI, and
    /// saves the tokens in ``KeywayClient/session`` (unless ``KeywayOptions/completedSignIns``
    /// hands completions over).
    ///
    /// ```swift
    /// let tokens = try await keyway.browser.signIn(
    ///     using: WebAuthenticationBrowserSession { window },
    ///     options: BrowserSignInOptions(redirectURI: URL(string: "com.example.app:/callback")!))
    /// ```
    ///
    /// Emits `signInStarted`, then `signInCompleted` or `signInFailed` (with `via: browser`).
    ///
    /// - Parameters:
    ///   - browser: The browser to run the request in.
    ///   - options: The redirect URI, scopes and hints.
    /// - Returns: The verified tokens.
    /// - Throws: ``BrowserSignInError`` (cancelled, the server's OAuth error, a callback that fails
    ///   its checks); ``KeywayError`` (the options, discovery, redeeming the code, the ID token);
    ///   ``SessionError`` when the tokens cannot be saved.
    @discardableResult
    public func signIn(
        using browser: any BrowserSession, options: BrowserSignInOptions
    ) async throws -> TokenSet {
        let request = try await authorizationRequest(options)
        client.eventBroadcaster.emit(.signInStarted, ["flowType": FlowType.signin.rawValue, "via": "browser"])
        let callback: URL
        do {
            callback = try await browser.authorize(url: request.url, callbackURL: request.redirectURI)
        } catch let error as BrowserSignInError {
            failed(error)
            throw error
        } catch is CancellationError {
            failed(BrowserSignInError.cancelled)
            throw BrowserSignInError.cancelled
        } catch {
            let failure = BrowserSignInError.browserFailed(String(describing: error))
            failed(failure)
            throw failure
        }
        return try await complete(request, callbackURL: callback, announced: true)
    }

    /// Makes an authorization request for the server: its issuer and authorization endpoint
    /// from discovery (or ``BrowserSignInOptions/authorizationEndpoint``), and whether its
    /// callbacks must carry `iss`. Open its ``AuthorizationRequest/url`` in a browser, keep it,
    /// and hand the callback to ``complete(_:callbackURL:)``.
    ///
    /// - Parameter options: The redirect URI, scopes and hints.
    /// - Returns: A request with fresh PKCE, `state` and `nonce`.
    /// - Throws: ``KeywayError``: `invalidConfiguration` for malformed options, `networkFailure`
    ///   or `invalidResponse` when the discovery document cannot be read.
    public func authorizationRequest(_ options: BrowserSignInOptions) async throws -> AuthorizationRequest {
        let metadata = try await client.tokenClient.authorizationMetadata()
        return try AuthorizationRequest(
            issuer: metadata.issuer,
            authorizationEndpoint: try metadata.authorizationEndpoint(configured: options.authorizationEndpoint),
            clientID: client.configID, options: options, requiresIssuer: metadata.issParameterSupported,
            random: client.options.random)
    }

    /// Finishes a browser sign-in with its callback: checks it
    /// (``AuthorizationRequest/response(from:)``), redeems the code with the request's verifier and
    /// redirect URI, verifies the ID token and its `nonce`, and saves the tokens in
    /// ``KeywayClient/session`` (unless ``KeywayOptions/completedSignIns`` hands completions over).
    ///
    /// - Parameters:
    ///   - request: The request the browser ran.
    ///   - callbackURL: The URL the browser came back to.
    /// - Returns: The verified tokens.
    /// - Throws: ``BrowserSignInError`` for a callback that fails its checks or carries the
    ///   server's error; ``KeywayError`` from redeeming the code (`oauth` with `invalid_grant`
    ///   for a used or expired code, `invalidIDToken`); ``SessionError`` when saving fails.
    @discardableResult
    public func complete(
        _ request: AuthorizationRequest, callbackURL: URL
    ) async throws -> TokenSet {
        try await complete(request, callbackURL: callbackURL, announced: false)
    }

    private func complete(
        _ request: AuthorizationRequest, callbackURL: URL, announced: Bool
    ) async throws -> TokenSet {
        let tokens: TokenSet
        do {
            let response = try request.response(from: callbackURL)
            tokens = try await client.tokenClient.exchange(
                authCode: response.code, codeVerifier: request.codeVerifier,
                redirectURI: request.redirectURI.absoluteString, nonce: request.nonce)
        } catch let error as BrowserSignInError {
            failed(error)
            throw error
        } catch {
            client.eventBroadcaster.emit(
                .signInFailed, ["code": "token_error", "action": ProblemAction.restartFlow.rawValue, "via": "browser"])
            throw error
        }
        var data = ["flowType": FlowType.signin.rawValue, "via": "browser"]
        if let sid = tokens.idToken.sessionID { data["session"] = sid }
        client.eventBroadcaster.emit(.signInCompleted, data)
        if client.options.completedSignIns == .saveToSession { try await client.session.save(tokens) }
        return tokens
    }

    private func failed(_ error: BrowserSignInError) {
        client.eventBroadcaster.emit(
            .signInFailed,
            ["code": error.oauthError ?? Self.code(of: error), "action": ProblemAction.restartFlow.rawValue, "via": "browser"])
    }

    /// A stable code for an error that did not come from the server.
    static func code(of error: BrowserSignInError) -> String {
        switch error {
        case .cancelled: "cancelled"
        case .browserFailed: "browser_failed"
        case .authorizationFailed(let error, _, _): error
        case .stateMismatch: "state_mismatch"
        case .issuerMismatch: "issuer_mismatch"
        case .issuerMissing: "issuer_missing"
        case .missingCode: "missing_code"
        case .malformedCallback: "malformed_callback"
        }
    }
}

extension KeywayClient {
    /// Sign-in through the browser (the server's hosted pages, OpenID Connect with PKCE).
    public var browser: KeywayBrowser { KeywayBrowser(client: self) }
}
