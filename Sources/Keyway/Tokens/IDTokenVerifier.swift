import Foundation
import KeywayJOSE
import KeywayProtocol

/// Verifies an OpenID Connect ID token (OpenID Connect Core §3.1.3.7) against keys the caller
/// already holds: the signature (`ES256` with an EC P-256 key or `RS256` with an RSA key, as the
/// server's key set publishes both), `iss`, `aud`, `azp`, `exp`, `iat`, `sub`, `at_hash` when
/// an access token is given, and `nonce` when one was sent with the sign-in.
///
/// ``KeywayTokens/exchange(authCode:codeVerifier:)`` and ``KeywayTokens/verify(_:)`` use it with
/// the server's cached JWKS, and `KeywayBackend` with the keys it fetched: it is shared with that
/// package as SPI (`@_spi(KeywayBackend) import Keyway`), not part of an app's surface.
@_spi(KeywayBackend) public struct IDTokenVerifier: Sendable {
    /// The expected `iss`.
    public let issuer: String
    /// The expected audience: the application's config ID.
    public let clientID: String
    /// Clock skew tolerated on `exp` and `iat`.
    public let leeway: TimeInterval
    private let clock: any KeywayClock

    /// A verifier for tokens of `issuer` issued to `clientID`.
    ///
    /// - Parameters:
    ///   - issuer: The expected `iss`.
    ///   - clientID: The expected audience: the application's config ID.
    ///   - leeway: Clock skew tolerated on `exp` and `iat`, in seconds.
    ///   - clock: The clock `exp` and `iat` are checked against.
    public init(
        issuer: String, clientID: String, leeway: TimeInterval = 60, clock: any KeywayClock = SystemKeywayClock()
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.leeway = leeway
        self.clock = clock
    }

    /// Verifies `idToken` with the key of `keys` its header names.
    ///
    /// A token without `kid` is verified with the only key of a one-key set.
    ///
    /// - Parameters:
    ///   - idToken: The ID token, a compact JWS.
    ///   - accessToken: The access token issued with it, to check its `at_hash` against (when the
    ///     token has one).
    ///   - nonce: The `nonce` the sign-in was started with (OpenID Connect Core §3.1.3.7, step
    ///     11): the token must carry exactly this value. `nil` when none was sent: the claim is
    ///     then not checked.
    ///   - keys: The issuer's published keys.
    /// - Returns: The verified claims.
    /// - Throws: ``KeywayError/invalidIDToken(_:)`` when the token is not an ES256 or RS256 compact
    ///   JWS, no key matches, the signature does not verify, or a claim fails its check (a
    ///   `nonce` that is missing or another than the one expected among them).
    public func verify(
        _ idToken: String, accessToken: String? = nil, nonce: String? = nil, keys: JSONWebKeySet
    ) throws -> IDTokenClaims {
        let jws = try Self.parse(idToken)
        let key: JSONWebKey
        if let kid = jws.keyID, let match = keys.keys.first(where: { $0.kid == kid }) {
            key = match
        } else if jws.keyID == nil, keys.keys.count == 1, let only = keys.keys.first {
            key = only
        } else {
            throw KeywayError.invalidIDToken("No published key matches the token's kid.")
        }
        return try verify(jws, accessToken: accessToken, nonce: nonce, key: key)
    }

    /// The algorithms ID tokens may be signed with.
    static let algorithms: Set<String> = ["ES256", "RS256"]

    /// Splits a compact JWS and checks that it is an ES256 or RS256 token.
    static func parse(_ idToken: String) throws -> CompactJWS {
        let jws: CompactJWS
        do {
            jws = try CompactJWS(idToken)
        } catch {
            throw KeywayError.invalidIDToken("It is not a compact JWS.")
        }
        guard let algorithm = jws.algorithm, algorithms.contains(algorithm) else {
            throw KeywayError.invalidIDToken("Unexpected algorithm \(jws.algorithm ?? "none").")
        }
        return jws
    }

    /// Verifies a parsed token with `key`, whose type must fit the token's algorithm.
    func verify(_ jws: CompactJWS, accessToken: String?, nonce: String? = nil, key: JSONWebKey) throws -> IDTokenClaims {
        do {
            try jws.verify(with: key)
        } catch {
            throw KeywayError.invalidIDToken("The signature does not verify.")
        }
        guard case .object(let claims) = try? JSONDecoder().decode(JSONValue.self, from: jws.payload) else {
            throw KeywayError.invalidIDToken("The payload is not a JSON object.")
        }
        guard claims["iss"]?.stringValue == issuer else { throw KeywayError.invalidIDToken("The issuer does not match.") }
        let audience: [String]
        switch claims["aud"] {
        case .string(let value): audience = [value]
        case .array(let values): audience = values.compactMap(\.stringValue)
        default: throw KeywayError.invalidIDToken("The audience is missing.")
        }
        guard audience.contains(clientID) else { throw KeywayError.invalidIDToken("The token was issued to another client.") }
        if audience.count > 1 || claims["azp"] != nil, claims["azp"]?.stringValue != clientID {
            throw KeywayError.invalidIDToken("The authorized party does not match.")
        }
        let now = clock.now().timeIntervalSince1970
        guard let exp = claims["exp"]?.numberValue, let iat = claims["iat"]?.numberValue else {
            throw KeywayError.invalidIDToken("exp or iat is missing.")
        }
        guard exp + leeway > now else { throw KeywayError.invalidIDToken("The token has expired.") }
        guard iat - leeway <= now else { throw KeywayError.invalidIDToken("The token was issued in the future.") }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
            throw KeywayError.invalidIDToken("The subject is missing.")
        }
        if let accessToken, let atHash = claims["at_hash"]?.stringValue {
            let digest = Array(SHA256Digest.of(accessToken).prefix(16))
            guard ConstantTime.equals(Base64URL.encode(digest), atHash) else {
                throw KeywayError.invalidIDToken("at_hash does not match the access token.")
            }
        }
        let tokenNonce = claims["nonce"]?.stringValue
        if let nonce {
            guard let tokenNonce else { throw KeywayError.invalidIDToken("The nonce is missing.") }
            guard ConstantTime.equals(tokenNonce, nonce) else {
                throw KeywayError.invalidIDToken("The nonce does not match the one the sign-in was started with.")
            }
        }
        guard let verified = IDTokenClaims(payload: claims) else {
            throw KeywayError.invalidIDToken("The claims cannot be read.")
        }
        return verified
    }
}

extension IDTokenClaims {
    /// The claims of an ID token's payload whose checks have passed: `nil` without `iss`, `sub`,
    /// `aud`, `exp` or `iat`.
    init?(payload claims: [String: JSONValue]) {
        let audience: [String]
        switch claims["aud"] {
        case .string(let value): audience = [value]
        case .array(let values): audience = values.compactMap(\.stringValue)
        default: return nil
        }
        guard let issuer = claims["iss"]?.stringValue, let subject = claims["sub"]?.stringValue,
            let exp = claims["exp"]?.numberValue, let iat = claims["iat"]?.numberValue
        else { return nil }
        var emailVerified: Bool?
        if case .bool(let value) = claims["email_verified"] { emailVerified = value }
        var methods: [String] = []
        if case .array(let values) = claims["amr"] { methods = values.compactMap(\.stringValue) }
        self.init(
            issuer: issuer, subject: subject, audience: audience, expiresAt: Date(timeIntervalSince1970: exp),
            issuedAt: Date(timeIntervalSince1970: iat),
            authTime: claims["auth_time"]?.numberValue.map(Date.init(timeIntervalSince1970:)),
            authenticationMethods: methods, email: claims["email"]?.stringValue, emailVerified: emailVerified,
            sessionID: claims["sid"]?.stringValue, nonce: claims["nonce"]?.stringValue)
        if case .bool(true) = claims["is_anonymous"] { isAnonymous = true }
        phoneNumber = claims["phone_number"]?.stringValue
    }

    /// The claims of an ID token verified earlier (a session's stored token), read without
    /// verifying it again; `nil` when it cannot be read.
    init?(verifiedToken token: String) {
        guard let jws = try? CompactJWS(token),
            case .object(let claims) = try? JSONDecoder().decode(JSONValue.self, from: jws.payload)
        else { return nil }
        self.init(payload: claims)
    }
}
