import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol

/// The SDK-managed code exchange for public applications, and OpenID metadata caching.
actor TokenClient {
    let server: ServerURL
    private let configId: String
    private let options: KeywayOptions
    private var discovery: DiscoveryDocument?
    /// What the browser path reads of the same document.
    private var browserMetadata: BrowserMetadata?
    private var keys: [String: JSONWebKey] = [:]
    /// The latest `DPoP-Nonce` the server sent.
    private var dpopNonce: String?

    /// Clock skew tolerated on `exp` and `iat`.
    static let leeway: TimeInterval = 60

    private let logger: KeywayLogger

    /// Proves code redemptions with App Attest, when configured.
    private let appAttest: AppAttestAgent?

    init(server: ServerURL, configId: String, options: KeywayOptions, appAttest: AppAttestAgent? = nil) {
        self.server = server
        self.configId = configId
        self.options = options
        self.appAttest = appAttest
        self.logger = KeywayLogger(configuration: options.logging, clock: options.clock)
    }

    /// Redeems a code. `redirectURI` is repeated as `redirect_uri` when the code was obtained with
    /// one (RFC 6749 §4.1.3); `nonce`, when the sign-in sent one, must be the ID token's.
    func exchange(
        authCode: Sensitive<String>, codeVerifier: Sensitive<String>, redirectURI: String? = nil, nonce: String? = nil
    ) async throws -> TokenSet {
        guard !authCode.revealed.isEmpty else { throw KeywayError.invalidConfiguration("The authorization code is empty.") }
        guard PKCE.isValidVerifier(codeVerifier.revealed) else {
            throw KeywayError.invalidConfiguration("The code verifier is not a valid PKCE verifier.")
        }
        var form = [
            ("grant_type", "authorization_code"), ("code", authCode.revealed),
            ("code_verifier", codeVerifier.revealed), ("client_id", configId),
        ]
        if let redirectURI { form.append(("redirect_uri", redirectURI)) }
        return try await tokenRequest(form, nonce: nonce)
    }

    func exchange(externalToken: Sensitive<String>, type: ExternalTokenType) async throws -> TokenSet {
        let token = externalToken.revealed
        guard token.split(separator: ".", omittingEmptySubsequences: false).count == 3, token.count <= 16_384,
            token.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { throw KeywayError.invalidConfiguration("The external token is not a compact JWT.") }
        return try await tokenRequest([
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"), ("subject_token", token),
            ("subject_token_type", type.rawValue), ("client_id", configId),
        ])
    }

    func refresh(refreshToken: Sensitive<String>) async throws -> TokenSet {
        let token = refreshToken.revealed
        guard !token.isEmpty, token.count <= 512, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw KeywayError.invalidConfiguration("The refresh token is empty or malformed.")
        }
        return try await tokenRequest([
            ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", configId),
        ])
    }

    /// `POST /v1/guests`: a new guest's tokens, verified as a code redemption's are (with a DPoP
    /// proof when the SDK has a DPoP key, so the tokens are bound to it).
    func signInAsGuest() async throws -> TokenSet {
        let metadata = try await loadDiscovery()
        let url = server.appending(path: "/v1/guests")
        var headers = [
            "Content-Type": "application/json", "Accept": "application/json, \(Problem.mediaType)",
            ProtocolHeader.configID: configId,
        ]
        if let key = options.dpopKey { headers["DPoP"] = try proof(key: key, method: "POST", url: url, accessToken: nil) }
        let response = try await send(TransportRequest(method: "POST", url: url, headers: headers, body: Data("{}".utf8)))
        if let nonce = response.header("DPoP-Nonce") { dpopNonce = nonce }
        let decoder = JSONDecoder()
        guard response.status == 200 else {
            // Problems carry the protocol's timestamps (`retryAt`).
            if let problem = try? WireCoding.makeDecoder().decode(Problem.self, from: response.body) {
                logger.log(.notice, .oauth, "guest sign-in refused: \(problem.code.rawValue)", [:])
                throw KeywayError.problem(problem)
            }
            throw KeywayError.invalidResponse("The guest sign-in answered HTTP \(response.status).")
        }
        guard let tokens = try? decoder.decode(TokenResponse.self, from: response.body) else {
            throw KeywayError.invalidResponse("The guest sign-in's tokens could not be read.")
        }
        return try await verified(tokens, issuer: metadata.issuer)
    }

    /// Posts a token request and verifies the ID token of the answer.
    private func tokenRequest(_ form: [(String, String)], nonce: String? = nil) async throws -> TokenSet {
        let metadata = try await loadDiscovery()
        guard let tokenURL = URL(string: metadata.tokenEndpoint) else {
            throw KeywayError.invalidResponse("The token endpoint URL is invalid.")
        }
        let body = form.map { "\($0.0)=\(Self.formEncode($0.1))" }.joined(separator: "&")
        let attest = form.first?.1 == "authorization_code"
        var response = try await postToken(body: body, url: tokenURL, attest: attest)
        let decoder = JSONDecoder()
        // RFC 9449 §8: the server wants a nonce in the proof; retry once with the one it sent.
        if options.dpopKey != nil, response.status == 400,
            (try? decoder.decode(OAuthErrorResponse.self, from: response.body))?.error == "use_dpop_nonce",
            response.header("DPoP-Nonce") != nil
        {
            response = try await postToken(body: body, url: tokenURL, attest: attest)
        }
        guard response.status == 200 else {
            if let error = try? decoder.decode(OAuthErrorResponse.self, from: response.body) {
                logger.log(
                    .notice, .oauth, "token endpoint refused: \(error.error)",
                    ["status": .plain(String(response.status)), "description": .plain(error.errorDescription ?? "-")])
                throw KeywayError.oauth(status: response.status, error: error)
            }
            throw KeywayError.invalidResponse("The token endpoint answered HTTP \(response.status).")
        }
        let tokens: TokenResponse
        do {
            tokens = try decoder.decode(TokenResponse.self, from: response.body)
        } catch {
            throw KeywayError.invalidResponse("The token response could not be read.")
        }
        return try await verified(tokens, issuer: metadata.issuer, nonce: nonce)
    }

    /// Verifies the ID token of a token response obtained elsewhere (the app's backend).
    func verify(_ tokens: TokenResponse) async throws -> TokenSet {
        try await verified(tokens, issuer: try await loadDiscovery().issuer)
    }

    private func verified(_ tokens: TokenResponse, issuer: String, nonce: String? = nil) async throws -> TokenSet {
        guard let idToken = tokens.idToken else { throw KeywayError.invalidIDToken("The response has no ID token.") }
        let claims: IDTokenClaims
        do {
            claims = try await verify(
                idToken: idToken.revealed, accessToken: tokens.accessToken.revealed, issuer: issuer, nonce: nonce)
        } catch {
            logger.log(.warning, .crypto, "ID token refused: \(error)")
            throw error
        }
        logger.log(
            .info, .oauth, "tokens issued", ["sub": .plain(claims.subject), "tokenType": .plain(tokens.tokenType),
            "accessToken": .secret(tokens.accessToken.revealed)])
        return TokenSet(
            response: tokens, idToken: claims,
            accessTokenExpiresAt: options.clock.now().addingTimeInterval(TimeInterval(tokens.expiresIn)))
    }

    /// Posts to the token endpoint; with `attest`, an App Attest assertion over the DPoP proof
    /// goes with it (a code redemption, which binds the tokens to the DPoP key).
    private func postToken(body: String, url: URL, attest: Bool = false) async throws -> TransportResponse {
        var headers = ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"]
        if let key = options.dpopKey {
            let proof = try proof(key: key, method: "POST", url: url, accessToken: nil)
            headers["DPoP"] = proof
            if attest, let appAttest, let evidence = await appAttest.evidence(for: Data(proof.utf8)) {
                headers[ProtocolHeader.appAttestKey] = evidence.keyID
                headers[ProtocolHeader.appAttestAssertion] = evidence.assertion
            }
        }
        let response = try await send(TransportRequest(method: "POST", url: url, headers: headers, body: Data(body.utf8)))
        if let nonce = response.header("DPoP-Nonce") { dpopNonce = nonce }
        return response
    }

    private func proof(
        key: any DeviceKey, method: String, url: URL, accessToken: String?, nonce: String? = nil
    ) throws -> String {
        do {
            var generator = SystemRandomNumberGenerator()
            let jti = Base64URL.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
            return try DPoP.proof(
                key: key, method: method, url: url, issuedAt: options.clock.now(), nonce: nonce ?? dpopNonce,
                accessToken: accessToken, jti: jti)
        } catch {
            throw KeywayError.invalidConfiguration("The DPoP proof could not be signed.")
        }
    }

    /// Whether an access token carries `cnf.jkt` (is DPoP-bound). Reads the payload only: the
    /// server checks the token.
    static func isDPoPBound(_ accessToken: String) -> Bool {
        let parts = accessToken.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
            case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: payload),
            case .object(let confirmation)? = claims["cnf"]
        else { return false }
        return confirmation["jkt"] != nil
    }

    // MARK: ID token

    func verify(idToken: String, accessToken: String?, issuer: String, nonce: String? = nil) async throws -> IDTokenClaims {
        let jws = try IDTokenVerifier.parse(idToken)
        let key = try await key(kid: jws.keyID)
        let verifier = IDTokenVerifier(issuer: issuer, clientID: configId, leeway: Self.leeway, clock: options.clock)
        return try verifier.verify(jws, accessToken: accessToken, nonce: nonce, key: key)
    }

    // MARK: Revocation, user info, sign-out

    func revoke(token: Sensitive<String>) async throws {
        let value = token.revealed
        guard Self.isTokenShaped(value) else {
            throw KeywayError.invalidConfiguration("The token to revoke is empty or malformed.")
        }
        let metadata = try await loadDiscovery()
        guard let endpoint = metadata.revocationEndpoint, let url = URL(string: endpoint) else {
            throw KeywayError.invalidResponse("The server does not advertise a revocation endpoint.")
        }
        let body = [("token", value), ("client_id", configId)].map { "\($0.0)=\(Self.formEncode($0.1))" }
            .joined(separator: "&")
        let response = try await send(
            TransportRequest(
                method: "POST", url: url,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                body: Data(body.utf8)))
        guard response.status == 200 else { throw Self.oauthError(response) }
    }

    func userInfo(accessToken: Sensitive<String>) async throws -> UserInfo {
        let metadata = try await loadDiscovery()
        guard let endpoint = metadata.userinfoEndpoint, let url = URL(string: endpoint) else {
            throw KeywayError.invalidResponse("The server does not advertise a userinfo endpoint.")
        }
        let response = try await bearerRequest("GET", url: url, accessToken: accessToken)
        guard response.status == 200 else { throw Self.oauthError(response) }
        guard let info = try? JSONDecoder().decode(UserInfo.self, from: response.body) else {
            throw KeywayError.invalidResponse("The userinfo answer could not be read.")
        }
        return info
    }

    func signOutEverywhere(accessToken: Sensitive<String>) async throws {
        let response = try await bearerRequest(
            "DELETE", url: server.appending(path: "/v1/me/sessions"), accessToken: accessToken)
        guard response.status == 204 else { throw Self.oauthError(response) }
    }

    func profile(accessToken: Sensitive<String>) async throws -> UserProfileDocument {
        let response = try await bearerRequest("GET", url: server.appending(path: "/v1/me"), accessToken: accessToken)
        return try Self.decodeProfile(response)
    }

    func updateProfile(accessToken: Sensitive<String>, changes: [String: ProfileValue?]) async throws
        -> UserProfileDocument
    {
        let body = try WireCoding.makeEncoder().encode(UserProfileUpdate(profile: changes))
        let response = try await bearerRequest(
            "PATCH", url: server.appending(path: "/v1/me"), accessToken: accessToken, body: body)
        return try Self.decodeProfile(response)
    }

    private static func decodeProfile(_ response: TransportResponse) throws -> UserProfileDocument {
        guard response.status == 200 else {
            if let problem = try? WireCoding.makeDecoder().decode(Problem.self, from: response.body) {
                throw KeywayError.problem(problem)
            }
            throw oauthError(response)
        }
        guard let document = try? WireCoding.makeDecoder().decode(UserProfileDocument.self, from: response.body) else {
            throw KeywayError.invalidResponse("The profile could not be read.")
        }
        return document
    }

    func bearerRequest(_ method: String, url: URL, accessToken: Sensitive<String>, body: Data? = nil)
        async throws -> TransportResponse
    {
        var headers = try authorizationHeaders(method: method, url: url, accessToken: accessToken, nonce: nil)
        headers["Accept"] = "application/json"
        if body != nil { headers["Content-Type"] = "application/json" }
        return try await send(TransportRequest(method: method, url: url, headers: headers, body: body))
    }

    /// `Authorization` for a request with `accessToken`: `Bearer`, or for a DPoP-bound token
    /// `DPoP` with a fresh `DPoP` proof for this method and URL (with `ath` and, when given, the
    /// resource server's nonce).
    func authorizationHeaders(method: String, url: URL, accessToken: Sensitive<String>, nonce: String?) throws
        -> [String: String]
    {
        guard Self.isTokenShaped(accessToken.revealed) else {
            throw KeywayError.invalidConfiguration("The access token is empty or malformed.")
        }
        guard Self.isDPoPBound(accessToken.revealed) else {
            return ["Authorization": "Bearer \(accessToken.revealed)"]
        }
        guard let key = options.dpopKey else {
            throw KeywayError.invalidConfiguration("This access token is DPoP-bound, but no dpopKey is configured.")
        }
        return [
            "Authorization": "DPoP \(accessToken.revealed)",
            "DPoP": try proof(key: key, method: method, url: url, accessToken: accessToken.revealed, nonce: nonce),
        ]
    }

    /// Printable ASCII without spaces, at most 8 KiB.
    private static func isTokenShaped(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 8192 && value.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    static func oauthError(_ response: TransportResponse) -> KeywayError {
        if let error = try? JSONDecoder().decode(OAuthErrorResponse.self, from: response.body) {
            return .oauth(status: response.status, error: error)
        }
        return .invalidResponse("The server answered HTTP \(response.status).")
    }

    // MARK: Metadata

    private func loadDiscovery() async throws -> DiscoveryDocument {
        if let discovery { return discovery }
        let response = try await send(
            TransportRequest(method: "GET", url: server.appending(path: "/.well-known/openid-configuration")))
        guard response.status == 200,
            let document = try? JSONDecoder().decode(DiscoveryDocument.self, from: response.body)
        else { throw KeywayError.invalidResponse("The OpenID configuration could not be read.") }
        browserMetadata = try? JSONDecoder().decode(BrowserMetadata.self, from: response.body)
        // OpenID Connect Discovery §4.3: the issuer must be the URL the document was fetched from.
        guard document.issuer == server.root.absoluteString else {
            throw KeywayError.invalidResponse("The server's issuer \(document.issuer) does not match \(server.root.absoluteString).")
        }
        discovery = document
        return document
    }

    /// The issuer, the authorization endpoint and whether the server puts `iss` in its
    /// authorization responses (RFC 9207), from the discovery document.
    func authorizationMetadata() async throws -> AuthorizationServerMetadata {
        let document = try await loadDiscovery()
        return AuthorizationServerMetadata(
            issuer: document.issuer, discoveredEndpoint: document.authorizationEndpoint,
            issParameterSupported: browserMetadata?.authorizationResponseIssParameterSupported ?? false)
    }

    /// The key with `kid`, fetching the JWKS again once when it is not cached (key rotation).
    private func key(kid: String?) async throws -> JSONWebKey {
        if let kid, let cached = keys[kid] { return cached }
        let metadata = try await loadDiscovery()
        guard let url = URL(string: metadata.jwksUri) else { throw KeywayError.invalidResponse("The JWKS URL is invalid.") }
        let response = try await send(TransportRequest(method: "GET", url: url))
        guard response.status == 200, let set = try? JSONDecoder().decode(JSONWebKeySet.self, from: response.body) else {
            throw KeywayError.invalidResponse("The JWKS could not be read.")
        }
        keys = Dictionary(set.keys.compactMap { key in key.kid.map { ($0, key) } }, uniquingKeysWith: { first, _ in first })
        if let kid, let found = keys[kid] { return found }
        if kid == nil, set.keys.count == 1, let only = set.keys.first { return only }
        throw KeywayError.invalidIDToken("No published key matches the token's kid.")
    }

    /// Sends through the app's transport; a failure to get any answer is ``KeywayError/networkFailure(_:)``.
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        do {
            return try await options.transport.send(request)
        } catch let error as KeywayError {
            throw error
        } catch {
            throw KeywayError.networkFailure(error.localizedDescription)
        }
    }

    static func formEncode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
