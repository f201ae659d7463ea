import Foundation
import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// `/oauth2/authorize` (RFC 6749 §4.1, OpenID Connect Core §3.1.2) and pushed authorization
/// requests (RFC 9126).
extension HostedLogin {
    /// The prefix of a pushed request's `request_uri`.
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"
    /// How long a pushed request may wait for its browser.
    static let pushedRequestLifetime = 90

    /// Answers an authorization request: an error page when the client or its redirect URI cannot
    /// be trusted, otherwise a redirect to the client (with a code, or an error), or the hosted
    /// pages when the user must sign in or consent.
    func authorize(_ parameters: [String: String], request: Request) async throws -> Response {
        let strings = HostedStrings.forLocales((parameters["ui_locales"] ?? "").split(separator: " ").map(String.init))
        guard let clientId = parameters["client_id"], !clientId.isEmpty,
            let application = try await database.read({ try await $0.applications.find(configId: clientId) })
        else {
            return errorPage(
                title: strings("error.unknownClient.title"), text: strings("error.unknownClient.text"), status: 400,
                strings: strings)
        }
        let theme = await theme(for: application)
        var parameters = parameters
        if let requestURI = parameters["request_uri"] {
            // A request object by reference (OpenID Connect Core §6.2) is not supported: once the
            // client and its redirect URI are known, the client is told so at the redirect URI
            // (§6.2's `request_uri_not_supported`); otherwise the page says it.
            if !requestURI.hasPrefix(Self.requestURIPrefix),
                let refusal = try await refuseRequestByReference(parameters, application: application)
            {
                return refusal
            }
            guard let pushed = try await redeemPushedRequest(requestURI, application: application) else {
                return errorPage(
                    title: strings("error.par.title"), text: strings("error.par.text"), status: 400, theme: theme,
                    strings: strings)
            }
            parameters = pushed
        }
        let registered = try await database.read { try await $0.redirectURIs.uris(.login, applicationId: application.id) }
        let parsed = AuthorizationRequest.parse(parameters, application: application, registered: registered)
        let issuer = issuer()
        switch parsed {
        case .failure(.page(_, _)):
            // Only a missing or unregistered redirect URI is refused with a page: say which, and
            // what the user and the application's developers can do.
            let values = ["application": application.name, "uri": Self.shown(parameters["redirect_uri"] ?? "")]
            return errorPage(
                title: strings("error.redirect.title", values),
                text: strings((parameters["redirect_uri"] ?? "").isEmpty ? "error.redirect.missing" : "error.redirect.unregistered", values),
                status: 400, theme: theme, strings: strings)
        case .failure(.redirect(let error, let description, let redirectURI, let mode, let state)):
            return AuthorizationResponse.send(
                AuthorizationResponse.error(error, description: description, state: state, issuer: issuer),
                to: redirectURI, mode: mode)
        case .success(let authorization):
            if application.requirePAR, parameters["request_uri"] == nil {
                return refuse(authorization, "invalid_request", "This client must push its authorization requests (PAR).")
            }
            return try await answer(authorization, application: application, request: request, strings: strings)
        }
    }

    /// `request_uri_not_supported` at the request's redirect URI when it is one the client
    /// registered; `nil` when it is not (the caller shows a page instead).
    private func refuseRequestByReference(_ parameters: [String: String], application: ApplicationRecord) async throws
        -> Response?
    {
        guard let redirectURI = parameters["redirect_uri"], !redirectURI.isEmpty else { return nil }
        let registered = try await database.read { try await $0.redirectURIs.uris(.login, applicationId: application.id) }
        guard RedirectURI.problem(with: redirectURI, publicClient: application.clientType == .public) == nil,
            RedirectURI.matches(redirectURI, registered: registered)
        else { return nil }
        let mode = parameters["response_mode"].flatMap(AuthorizationRequest.ResponseMode.init(rawValue:)) ?? .query
        return AuthorizationResponse.send(
            AuthorizationResponse.error(
                "request_uri_not_supported",
                description: "Request objects by reference are not supported; send the parameters, or push them (PAR).",
                state: parameters["state"], issuer: issuer()),
            to: redirectURI, mode: mode)
    }

    /// Answers a valid request: from the browser session when it may, or through the pages.
    private func answer(
        _ authorization: AuthorizationRequest, application: ApplicationRecord, request: Request, strings: HostedStrings
    ) async throws -> Response {
        let issuer = issuer()
        var session = try await sessions.live(token: BrowserCookies.value(cookies.sessionName, in: request))
        if let current = session, current.projectId != application.projectId { session = nil }
        if let hint = authorization.idTokenHint {
            guard let claims = IDTokenHint(hint, keys: keys, issuer: issuer) else {
                return refuse(authorization, "invalid_request", "The id_token_hint is not an ID token this server issued.")
            }
            if let current = session, current.userId != claims.subject {
                return refuse(authorization, "login_required", "The browser is signed in as another user than the hint names.")
            }
        }
        let now = clock.now().epochMilliseconds
        var mustSignIn = session == nil || authorization.prompt.contains(.login) || authorization.prompt.contains(.create)
        if let maxAge = authorization.maxAge, let current = session, now - current.authTime > Int64(maxAge) * 1000 {
            mustSignIn = true
        }
        if authorization.prompt.contains(.none) {
            guard !mustSignIn, let current = session else {
                return refuse(authorization, "login_required", "The user is not signed in (prompt=none).")
            }
            if try await sessions.needsConsent(
                application, userId: current.userId, scope: authorization.scope, prompt: authorization.prompt)
            {
                return refuse(authorization, "consent_required", "The user has not allowed this client (prompt=none).")
            }
            return try await redirectWithCode(authorization, application: application, session: current)
        }
        if !mustSignIn, let current = session {
            if try await sessions.needsConsent(
                application, userId: current.userId, scope: authorization.scope, prompt: authorization.prompt)
            {
                var state = BrowserFlowState(purpose: .authorize, request: authorization)
                state.consentFor = current.id
                let (_, cookie) = try await startVisit(state, application: application)
                return Self.seeOther("/login", cookies: [cookie])
            }
            return try await redirectWithCode(authorization, application: application, session: current)
        }
        var state = BrowserFlowState(purpose: .authorize, request: authorization)
        state.flowType = authorization.prompt.contains(.create) && application.flowTypes.contains(.signup) ? "signup" : "signIn"
        if let hint = authorization.loginHint, Identifier(parsing: hint) != nil { state.identifier = hint }
        let (_, cookie) = try await startVisit(state, application: application)
        return Self.seeOther("/login", cookies: [cookie])
    }

    /// Redirects to the client with a new code from the browser session.
    func redirectWithCode(
        _ authorization: AuthorizationRequest, application: ApplicationRecord, session: BrowserSessionRecord
    ) async throws -> Response {
        let code = try await sessions.issueCode(for: authorization, application: application, browserSession: session)
        logger.info("authorization code issued", metadata: ["client": "\(application.configId)"])
        return AuthorizationResponse.send(
            AuthorizationResponse.success(code: code, state: authorization.state, issuer: issuer()),
            to: authorization.redirectURI, mode: authorization.responseMode)
    }

    /// Redirects an error to the client.
    func refuse(_ authorization: AuthorizationRequest, _ error: String, _ description: String) -> Response {
        AuthorizationResponse.send(
            AuthorizationResponse.error(error, description: description, state: authorization.state, issuer: issuer()),
            to: authorization.redirectURI, mode: authorization.responseMode)
    }

    // MARK: Pushed requests

    /// `POST /oauth2/par`: stores the request's parameters for the authenticated client and
    /// answers its `request_uri` (RFC 9126 §2).
    /// The parameters a pushed request keeps: those of an authorization request this server reads.
    /// Anything else a client sends is dropped, not stored.
    static let pushedParameters: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge",
        "code_challenge_method", "prompt", "max_age", "login_hint", "id_token_hint", "response_mode", "ui_locales",
        "acr_values",
    ]

    /// `POST /oauth2/par` (RFC 9126). What is kept is bounded: only ``pushedParameters``, each at most
    /// ``AuthorizationRequest/maximumValueLength`` bytes (about 30 kB in all); a client network
    /// pushes at most the flow starts per address of ``RateLimits`` in their window (beyond, `429`
    /// and nothing kept); a pushed request lives 90 seconds and is deleted once it expires.
    func push(form: [String: String], application: ApplicationRecord) async throws -> PushedAuthorizationResponse {
        guard form["request_uri"] == nil else {
            throw OAuthFailure.invalidRequest("request_uri cannot be pushed (RFC 9126 §2.1).")
        }
        if let clientId = form["client_id"], clientId != application.configId {
            throw OAuthFailure.invalidRequest("client_id is not the authenticated client.")
        }
        var parameters = form.filter { Self.pushedParameters.contains($0.key) }
        parameters["client_id"] = application.configId
        if let long = parameters.first(where: { $0.value.utf8.count > AuthorizationRequest.maximumValueLength }) {
            throw OAuthFailure.invalidRequest("\(long.key) is longer than \(AuthorizationRequest.maximumValueLength) bytes.")
        }
        let registered = try await database.read { try await $0.redirectURIs.uris(.login, applicationId: application.id) }
        switch AuthorizationRequest.parse(parameters, application: application, registered: registered) {
        case .failure(.page(_, let text)): throw OAuthFailure.invalidRequest(text)
        case .failure(.redirect(let error, let description, _, _, _)):
            var failure = OAuthFailure.invalidRequest(description)
            failure.body.error = error
            throw failure
        case .success: break
        }
        let token = SecureRandom.token(prefix: "par")
        let now = clock.now().epochMilliseconds
        let json = String(decoding: try JSONEncoder().encode(parameters), as: UTF8.self)
        let network = RequestClient.address.map(ClientAddress.hash)
        let engine = self.engine
        try await database.write { repositories in
            if let network {
                try await engine.consume(
                    "par-ip", network, limit: engine.limits.rateLimits.flowStartsPerAddress, now: now, in: repositories)
            }
            try await repositories.pushedRequests.insert(
                PushedRequestRecord(
                    uriHash: sha256Hex(token), applicationId: application.id, request: json,
                    expiresAt: now + Int64(Self.pushedRequestLifetime) * 1000, usedAt: nil))
        }
        return PushedAuthorizationResponse(
            requestURI: Self.requestURIPrefix + token, expiresIn: Self.pushedRequestLifetime)
    }

    /// The parameters pushed under `requestURI` for `application`, used up; `nil` when unknown,
    /// used, expired or pushed by another client.
    private func redeemPushedRequest(_ requestURI: String, application: ApplicationRecord) async throws -> [String: String]? {
        guard requestURI.hasPrefix(Self.requestURIPrefix) else { return nil }
        let hash = sha256Hex(String(requestURI.dropFirst(Self.requestURIPrefix.count)))
        let now = clock.now().epochMilliseconds
        return try await database.write { repositories -> [String: String]? in
            guard let record = try await repositories.pushedRequests.find(uriHash: hash), record.usedAt == nil,
                now < record.expiresAt, record.applicationId == application.id
            else { return nil }
            try await repositories.pushedRequests.markUsed(uriHash: hash, at: now)
            var parameters = try JSONDecoder().decode([String: String].self, from: Data(record.request.utf8))
            parameters["request_uri"] = requestURI
            return parameters
        }
    }
}

/// The answer of `POST /oauth2/par`.
struct PushedAuthorizationResponse: Codable, Sendable {
    var requestURI: String
    var expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case requestURI = "request_uri"
        case expiresIn = "expires_in"
    }
}
