import AsyncHTTPClient
import Foundation
@_spi(KeywayBackend) import Keyway
import KeywayJOSE
import KeywayProtocol
import NIOCore

/// The Keyway side of an app's own backend: redeems the authorization codes the app sends (with
/// the confidential application's secret), refreshes and introspects tokens, and verifies ID
/// and access tokens against the server's key set (fetched from discovery, cached, refetched
/// once when a token names a key it does not know).
///
/// ```swift
/// let keyway = try KeywayBackend(configuration: .init(
///     issuer: URL(string: "https://auth.example.com")!, clientId: "cfg_…", clientSecret: Sensitive(secret)))
/// let tokens = try await keyway.exchange(authCode: authCode, codeVerifier: codeVerifier)
/// let identity = try await keyway.verifyAccessToken(bearerToken)
/// ```
public final class KeywayBackend: Sendable {
    /// How to reach and trust the Keyway server.
    public struct Configuration: Sendable {
        /// The Keyway issuer URL (no trailing slash), as its tokens' `iss` carries it.
        public var issuer: URL
        /// The confidential application's config ID.
        public var clientId: String
        /// Its client secret, sent with HTTP Basic authentication.
        public var clientSecret: Sensitive<String>
        /// The applications whose access tokens ``KeywayBackend/verifyAccessToken(_:)`` accepts
        /// (for example the mobile app's config ID); `nil` accepts tokens of any application of
        /// the issuer.
        public var acceptedClientIds: Set<String>?
        /// Clock skew tolerated on ID tokens' `exp` and `iat`, and on access tokens' `iat`.
        public var leeway: TimeInterval
        /// The shortest time between two key set fetches caused by unknown `kid`s.
        public var minimumKeyRefetchInterval: TimeInterval
        /// How long an activation read for a local device signature check is kept
        /// (``KeywayBackend/activation(_:)``): a blocked or removed activation stops verifying
        /// at most this long after the change. Zero reads it every time.
        public var activationCacheLifetime: TimeInterval
        /// How long one request to the Keyway server may take (connecting included) before it
        /// fails with ``KeywayBackendError/serverUnavailable(_:)``.
        public var requestTimeout: TimeInterval

        /// Describes a Keyway server and the confidential application the backend acts as; the
        /// members are described above.
        public init(
            issuer: URL, clientId: String, clientSecret: Sensitive<String>, acceptedClientIds: Set<String>? = nil,
            leeway: TimeInterval = 60, minimumKeyRefetchInterval: TimeInterval = 30, activationCacheLifetime: TimeInterval = 10,
            requestTimeout: TimeInterval = 10
        ) {
            self.activationCacheLifetime = activationCacheLifetime
            self.requestTimeout = requestTimeout
            self.issuer = issuer
            self.clientId = clientId
            self.clientSecret = clientSecret
            self.acceptedClientIds = acceptedClientIds
            self.leeway = leeway
            self.minimumKeyRefetchInterval = minimumKeyRefetchInterval
        }
    }

    public let configuration: Configuration
    private let issuer: String
    private let httpClient: HTTPClient
    let clock: any KeywayClock
    private let keys: KeySetCache
    let activations = ActivationCache()

    /// Throws ``KeywayBackendError/invalidConfiguration(_:)`` for an unusable issuer, client ID
    /// or secret.
    public init(
        configuration: Configuration, httpClient: HTTPClient = .shared, clock: any KeywayClock = SystemKeywayClock()
    ) throws {
        var issuer = configuration.issuer.absoluteString
        while issuer.hasSuffix("/") { issuer.removeLast() }
        guard let scheme = configuration.issuer.scheme, ["http", "https"].contains(scheme),
            configuration.issuer.host != nil
        else { throw KeywayBackendError.invalidConfiguration("The issuer must be an http(s) URL.") }
        guard !configuration.clientId.isEmpty, !configuration.clientSecret.revealed.isEmpty else {
            throw KeywayBackendError.invalidConfiguration("The client ID and secret are required.")
        }
        self.configuration = configuration
        self.issuer = issuer
        self.httpClient = httpClient
        self.clock = clock
        self.keys = KeySetCache(
            issuer: issuer, httpClient: httpClient, clock: { clock.now() },
            minimumRefetchInterval: configuration.minimumKeyRefetchInterval)
    }

    /// How many times the key set was fetched.
    public var keySetFetchCount: Int {
        get async { await keys.fetchCount }
    }

    // MARK: Token endpoint

    /// Redeems an authorization code the app sent, with its PKCE verifier, and verifies the ID
    /// token (signature, `iss`, `aud`, `azp`, `exp`, `iat`, `at_hash`).
    public func exchange(authCode: Sensitive<String>, codeVerifier: Sensitive<String>) async throws -> TokenSet {
        guard Self.isTokenShaped(authCode.revealed) else {
            throw KeywayBackendError.invalidConfiguration("The authorization code is empty or malformed.")
        }
        guard PKCE.isValidVerifier(codeVerifier.revealed) else {
            throw KeywayBackendError.invalidConfiguration("The code verifier is not a valid PKCE verifier.")
        }
        return try await tokenRequest([
            ("grant_type", "authorization_code"), ("code", authCode.revealed), ("code_verifier", codeVerifier.revealed),
        ])
    }

    /// Trades a refresh token for new tokens (they rotate: keep the new refresh token).
    public func refresh(refreshToken: Sensitive<String>) async throws -> TokenSet {
        guard Self.isTokenShaped(refreshToken.revealed) else {
            throw KeywayBackendError.invalidConfiguration("The refresh token is empty or malformed.")
        }
        return try await tokenRequest([("grant_type", "refresh_token"), ("refresh_token", refreshToken.revealed)])
    }

    /// Asks the server whether a token is active (RFC 7662): unlike ``verifyAccessToken(_:)``
    /// it sees revocations and ended sign-ins.
    public func introspect(_ token: Sensitive<String>) async throws -> IntrospectionResponse {
        guard Self.isTokenShaped(token.revealed) else {
            throw KeywayBackendError.invalidConfiguration("The token is empty or malformed.")
        }
        guard let endpoint = try await keys.metadata().introspectionEndpoint else {
            throw KeywayBackendError.serverUnavailable("The server does not offer introspection.")
        }
        let body = try await post(endpoint, form: [("token", token.revealed)])
        do {
            return try JSONDecoder().decode(IntrospectionResponse.self, from: body)
        } catch {
            throw KeywayBackendError.serverUnavailable("The introspection answer could not be read.")
        }
    }

    private func tokenRequest(_ form: [(String, String)]) async throws -> TokenSet {
        let body = try await post(try await keys.metadata().tokenEndpoint, form: form)
        let response: TokenResponse
        do {
            response = try JSONDecoder().decode(TokenResponse.self, from: body)
        } catch {
            throw KeywayBackendError.serverUnavailable("The token response could not be read.")
        }
        guard let idToken = response.idToken else { throw KeywayBackendError.invalidToken("The response has no ID token.") }
        let claims = try await verifyIDToken(idToken.revealed, accessToken: response.accessToken.revealed)
        return TokenSet(
            response: response, idToken: claims,
            accessTokenExpiresAt: clock.now().addingTimeInterval(TimeInterval(response.expiresIn)))
    }

    /// Posts a form with the client's Basic credentials; answers the body of a 200.
    private func post(_ url: String, form: [(String, String)]) async throws -> Data {
        let body = form.map { "\($0.0)=\(Self.formEncode($0.1))" }.joined(separator: "&")
        return try await send(url, contentType: "application/x-www-form-urlencoded", body: Data(body.utf8))
    }

    /// Posts a JSON object to a path of the issuer with the client's Basic credentials; answers
    /// the body of a 200.
    func postJSON(_ path: String, _ object: some Encodable) async throws -> Data {
        let body: Data
        do {
            body = try JSONEncoder().encode(object)
        } catch {
            throw KeywayBackendError.invalidConfiguration("The request could not be encoded.")
        }
        return try await send(issuer + path, contentType: "application/json", body: body)
    }

    /// Gets a path of the issuer with the client's Basic credentials; answers the body of a 200.
    func getJSON(_ path: String) async throws -> Data {
        try await send(issuer + path, isGet: true, contentType: nil, body: nil)
    }

    private func send(_ url: String, isGet: Bool = false, contentType: String?, body: Data?) async throws -> Data {
        var request = HTTPClientRequest(url: url)
        request.method = isGet ? .GET : .POST
        let credentials = "\(Self.formEncode(configuration.clientId)):\(Self.formEncode(configuration.clientSecret.revealed))"
        request.headers.add(name: "Authorization", value: "Basic \(Data(credentials.utf8).base64EncodedString())")
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        request.headers.add(name: "Accept", value: "application/json")
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let status: Int
        let answer: Data
        do {
            let response = try await httpClient.execute(
                request, timeout: .milliseconds(Int64(configuration.requestTimeout * 1000)))
            status = Int(response.status.code)
            answer = Data(buffer: try await response.body.collect(upTo: 256 * 1024))
        } catch {
            throw KeywayBackendError.serverUnavailable("\(url) could not be reached.")
        }
        guard status == 200 else {
            if let error = try? JSONDecoder().decode(OAuthErrorResponse.self, from: answer) {
                throw KeywayBackendError.oauth(status: status, error: error)
            }
            throw KeywayBackendError.serverUnavailable("\(url) answered HTTP \(status).")
        }
        return answer
    }

    // MARK: Verification

    /// Verifies an ID token issued to this backend's application: `ES256` or `RS256`, as the application
    /// chose, with the server's published key its `kid` names.
    public func verifyIDToken(_ idToken: String, accessToken: String? = nil) async throws -> IDTokenClaims {
        let kid: String?
        do {
            kid = try CompactJWS(idToken).keyID
        } catch {
            throw KeywayBackendError.invalidToken("The ID token is not a compact JWS.")
        }
        let key = try await keys.key(kid: kid)
        let verifier = IDTokenVerifier(
            issuer: issuer, clientID: configuration.clientId, leeway: configuration.leeway, clock: clock)
        do {
            return try verifier.verify(idToken, accessToken: accessToken, keys: JSONWebKeySet(keys: [key]))
        } catch let error as KeywayError {
            if case .invalidIDToken(let why) = error { throw KeywayBackendError.invalidToken(why) }
            throw KeywayBackendError.invalidToken(error.description)
        }
    }

    /// Verifies a Keyway access token (RFC 9068: `typ: at+jwt`, ES256 by the server's key, `iss`
    /// and `aud` the issuer, not expired, of an accepted application). Tokens are checked offline:
    /// a revoked token is accepted until it expires (15 minutes at most) — use
    /// ``introspect(_:)`` where that matters. A DPoP-bound token also needs its proof checked;
    /// ``KeywayAuthMiddleware`` does both.
    public func verifyAccessToken(_ token: String) async throws -> AccessTokenIdentity {
        guard token.utf8.count <= 8192, let jws = try? CompactJWS(token) else {
            throw KeywayBackendError.invalidToken("The access token is not a compact JWS.")
        }
        guard jws.type == "at+jwt", jws.algorithm == "ES256" else {
            throw KeywayBackendError.invalidToken("The token is not a Keyway access token.")
        }
        let key = try await keys.key(kid: jws.keyID)
        do {
            try jws.verifyES256(with: try ECJWK.publicKey(from: key))
        } catch {
            throw KeywayBackendError.invalidToken("The access token's signature does not verify.")
        }
        guard case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: jws.payload) else {
            throw KeywayBackendError.invalidToken("The access token's payload is not a JSON object.")
        }
        guard claims["iss"]?.stringValue == issuer else {
            throw KeywayBackendError.invalidToken("The access token was issued by another server.")
        }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let value)?: audiences = [value]
        case .array(let values)?: audiences = values.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(issuer) else {
            throw KeywayBackendError.invalidToken("The access token is not for this audience.")
        }
        let now = clock.now().timeIntervalSince1970
        guard let exp = claims["exp"]?.numberValue, now < exp else {
            throw KeywayBackendError.invalidToken("The access token has expired.")
        }
        if let iat = claims["iat"]?.numberValue, iat - configuration.leeway > now {
            throw KeywayBackendError.invalidToken("The access token was issued in the future.")
        }
        guard let subject = claims["sub"]?.stringValue, let clientId = claims["client_id"]?.stringValue,
            let sessionId = claims["sid"]?.stringValue, let tokenId = claims["jti"]?.stringValue
        else { throw KeywayBackendError.invalidToken("The access token lacks sub, client_id, sid or jti.") }
        if let accepted = configuration.acceptedClientIds, !accepted.contains(clientId) {
            throw KeywayBackendError.invalidToken("The access token was issued to an application this backend does not accept.")
        }
        var thumbprint: String?
        if case .object(let confirmation)? = claims["cnf"] {
            guard let jkt = confirmation["jkt"]?.stringValue else {
                throw KeywayBackendError.invalidToken("The access token's cnf is not a DPoP binding.")
            }
            thumbprint = jkt
        }
        let scopes = Set((claims["scope"]?.stringValue ?? "").split(separator: " ").map(String.init))
        return AccessTokenIdentity(
            userId: subject, clientId: clientId, sessionId: sessionId, scopes: scopes, tokenId: tokenId,
            expiresAt: Date(timeIntervalSince1970: exp), dpopKeyThumbprint: thumbprint,
            isAnonymous: claims["is_anonymous"] == .bool(true))
    }

    /// Printable ASCII without spaces, at most 8 KiB.
    private static func isTokenShaped(_ value: String) -> Bool {
        !value.isEmpty && value.utf8.count <= 8192 && value.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// `application/x-www-form-urlencoded` encoding of one value.
    static func formEncode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
