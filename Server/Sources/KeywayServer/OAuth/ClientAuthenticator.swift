import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol

/// Client authentication at the token, revocation and introspection endpoints: `none` for public
/// applications, `client_secret_basic` and `client_secret_post` (RFC 6749 §2.3), and JWT
/// assertions (RFC 7523 §2.2, OpenID Connect Core §9): `client_secret_jwt` (HS256) and
/// `private_key_jwt` (ES256, RS256). A client registered with a method must use that method.
struct ClientAuthenticator: Sendable {
    let database: any Database
    let clock: any ServerClock
    let issuer: @Sendable () -> String
    let clientSecrets: ClientSecretDerivation

    static let assertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    /// Clock skew tolerated on an assertion's `exp`, `nbf` and `iat`.
    static let leeway: Int64 = 60
    /// How far in the future an assertion's `exp` may be; longer-lived assertions are refused.
    static let maximumAssertionLifetime: Int64 = 3600

    /// Authenticates the client of a request to `endpoint` (its URL is an accepted assertion audience).
    func authenticate(form: [String: String], authorization: String?, endpoint: URL? = nil) async throws
        -> ApplicationRecord
    {
        if form["client_assertion"] != nil || form["client_assertion_type"] != nil {
            guard authorization == nil, form["client_secret"] == nil else {
                throw OAuthFailure.invalidRequest("Use one client authentication method, not two.")
            }
            return try await authenticateAssertion(form: form, endpoint: endpoint)
        }
        var clientId = form["client_id"]
        var secret = form["client_secret"]
        let usedBasic = authorization != nil
        if let authorization {
            guard let credentials = Self.parseBasic(authorization) else {
                throw OAuthFailure.invalidClient("The Authorization header is not valid Basic credentials.", usedBasic: true)
            }
            if secret != nil {
                throw OAuthFailure.invalidRequest("Use one client authentication method, not two.")
            }
            if let formId = clientId, formId != credentials.id {
                throw OAuthFailure.invalidRequest("client_id does not match the Authorization header.")
            }
            clientId = credentials.id
            secret = credentials.secret
        }
        guard let clientId else {
            throw OAuthFailure.invalidRequest("client_id is required for public clients.")
        }
        guard let application = try await database.read({ try await $0.applications.find(configId: clientId) })
        else { throw OAuthFailure.invalidClient("Unknown client.", usedBasic: usedBasic) }
        let used: ClientAuthMethod = secret == nil ? .none : (usedBasic ? .clientSecretBasic : .clientSecretPost)
        try Self.check(used, allowedFor: application, usedBasic: usedBasic)
        switch application.clientType {
        case .public:
            break
        case .confidential:
            guard let secret, let storedHash = application.clientSecretHash,
                ConstantTime.equals(sha256Hex(secret), storedHash)
            else { throw OAuthFailure.invalidClient("Client authentication failed.", usedBasic: usedBasic) }
        }
        return application
    }

    /// Whether `application` may authenticate with `method`.
    private static func check(_ method: ClientAuthMethod, allowedFor application: ApplicationRecord, usedBasic: Bool)
        throws
    {
        let allowed: [ClientAuthMethod]
        if let registered = application.authMethod {
            allowed = [registered]
        } else {
            allowed = application.clientType == .public ? [.none] : [.clientSecretBasic, .clientSecretPost]
        }
        guard allowed.contains(method) else {
            let message =
                switch (application.clientType, method) {
                case (.public, _): "A public client does not authenticate with a secret."
                case (.confidential, .none): "Client authentication failed."
                default: "This client must authenticate with \(allowed.map(\.rawValue).joined(separator: " or "))."
                }
            throw OAuthFailure.invalidClient(message, usedBasic: usedBasic)
        }
    }

    // MARK: Assertions

    private func authenticateAssertion(form: [String: String], endpoint: URL?) async throws -> ApplicationRecord {
        func refuse(_ message: String) -> OAuthFailure { .invalidClient(message, usedBasic: false) }
        guard form["client_assertion_type"] == Self.assertionType else {
            throw OAuthFailure.invalidRequest("client_assertion_type must be \(Self.assertionType).")
        }
        guard let assertion = form["client_assertion"], !assertion.isEmpty, assertion.count <= 16_384 else {
            throw OAuthFailure.invalidRequest("client_assertion is required.")
        }
        guard let jws = try? CompactJWS(assertion),
            case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: jws.payload)
        else { throw refuse("The client assertion is not a signed JWT.") }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw refuse("The client assertion has no sub.")
        }
        if let clientId = form["client_id"], clientId != subject {
            throw OAuthFailure.invalidRequest("client_id does not match the client assertion's sub.")
        }
        guard let application = try await database.read({ try await $0.applications.find(configId: subject) }) else {
            throw refuse("Unknown client.")
        }
        guard let method = application.authMethod, [.clientSecretJWT, .privateKeyJWT].contains(method) else {
            try Self.check(.privateKeyJWT, allowedFor: application, usedBasic: false)
            throw refuse("Client authentication failed.")
        }
        guard let algorithm = jws.algorithm, method.assertionAlgorithms.contains(algorithm),
            application.assertionAlgorithm == nil || application.assertionAlgorithm == algorithm
        else {
            throw refuse("The client assertion's algorithm \(jws.algorithm ?? "(none)") is not accepted for this client.")
        }
        try verifySignature(jws, method: method, application: application)

        guard claims["iss"]?.stringValue == subject else {
            throw refuse("The client assertion's iss and sub must both be the client ID.")
        }
        let issuer = issuer()
        var audiences: Set<String> = [issuer, "\(issuer)/oauth2/token"]
        if let endpoint { audiences.insert(endpoint.absoluteString) }
        let presented: [String]
        switch claims["aud"] {
        case .string(let value)?: presented = [value]
        case .array(let values)?: presented = values.compactMap(\.stringValue)
        default: presented = []
        }
        guard presented.contains(where: audiences.contains) else {
            throw refuse("The client assertion's audience must be this server's issuer or token endpoint.")
        }
        let now = clock.now().epochMilliseconds / 1000
        guard let exp = claims["exp"]?.numericDate else {
            throw refuse("The client assertion has no expiry (exp).")
        }
        guard now < exp + Self.leeway else { throw refuse("The client assertion has expired.") }
        guard exp <= now + Self.maximumAssertionLifetime else {
            throw refuse("The client assertion lives too long: exp may be at most one hour ahead.")
        }
        for name in ["nbf", "iat"] {
            if let value = claims[name] {
                guard let seconds = value.numericDate, seconds <= now + Self.leeway else {
                    throw refuse("The client assertion is not valid yet (\(name)).")
                }
            }
        }
        guard let jti = claims["jti"]?.stringValue, !jti.isEmpty, jti.count <= 256 else {
            throw refuse("The client assertion has no jti.")
        }
        let hash = sha256Hex("\(subject)\u{0}\(jti)")
        let expiresAt = (exp + Self.leeway) * 1000
        let fresh = try await database.write { try await $0.clientAssertions.insert(hash: hash, expiresAt: expiresAt) }
        guard fresh else { throw refuse("The client assertion was already used (jti replay).") }
        return application
    }

    private func verifySignature(_ jws: CompactJWS, method: ClientAuthMethod, application: ApplicationRecord) throws {
        let failed = OAuthFailure.invalidClient("The client assertion's signature does not verify.", usedBasic: false)
        switch method {
        case .clientSecretJWT:
            guard let salt = application.clientSecretSalt else { throw failed }
            let secret = clientSecrets.secret(configId: application.configId, salt: salt)
            let expected = HMAC<SHA256>.authenticationCode(for: jws.signingInput, using: SymmetricKey(data: Data(secret.utf8)))
            guard ConstantTime.equals(Data(expected), jws.signature) else { throw failed }
        default:
            guard let keys = application.jwks?.keys, let key = try? JWKSignatures.key(for: jws, in: keys) else {
                throw OAuthFailure.invalidClient("No key of the client matches the assertion's kid.", usedBasic: false)
            }
            do {
                try JWKSignatures.verify(jws, with: key)
            } catch {
                throw failed
            }
        }
    }

    /// Whether a request presents client credentials of any kind: an `Authorization` header, a
    /// `client_id`, or a client assertion.
    static func presentsCredentials(form: [String: String], authorization: String?) -> Bool {
        authorization != nil || form["client_id"] != nil || form["client_assertion"] != nil
            || form["client_assertion_type"] != nil
    }

    /// The client a request names, before (or without) authenticating it: `client_id`, the Basic
    /// credentials' ID, or a client assertion's `sub`. For choosing the CORS origins of an answer;
    /// never for granting anything.
    static func claimedClientId(form: [String: String], authorization: String?) -> String? {
        if let clientId = form["client_id"] { return clientId }
        if let authorization, let credentials = parseBasic(authorization) { return credentials.id }
        guard let assertion = form["client_assertion"], let jws = try? CompactJWS(assertion),
            case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: jws.payload)
        else { return nil }
        return claims["sub"]?.stringValue
    }

    /// `Basic base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 §2.3.1).
    static func parseBasic(_ header: String) -> (id: String, secret: String)? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"),
            let id = FormURLEncoded.decode(text[..<colon]),
            let secret = FormURLEncoded.decode(text[text.index(after: colon)...]),
            !id.isEmpty
        else { return nil }
        return (id, secret)
    }
}
