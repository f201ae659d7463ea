import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol

/// Mints the JWTs of a token response: an RFC 9068 access token (always `ES256`) and an OpenID
/// Connect ID token (signed with the application's `id_token_signed_response_alg`).
struct TokenIssuer: Sendable {
    /// The keys: tokens are signed with the one that signs now.
    let keys: SigningKeyRing
    let lifetimes: TokenLifetimes

    struct Subject: Sendable {
        var userId: String
        var email: String?
        var emailVerified: Bool
        /// The verified phone number, if any.
        var phoneNumber: String? = nil
        var clientId: String
        var sessionId: String
        var authTime: Int64
        var amr: [String]
        var scope: String
        /// The DPoP key thumbprint the access token is bound to (`cnf.jkt`).
        var dpopJkt: String? = nil
        /// The authorization request's `nonce`, for the ID token of a code redemption.
        var nonce: String? = nil
        /// A guest (`is_anonymous: true` in both tokens).
        var isAnonymous = false
    }

    func accessToken(for subject: Subject, issuer: String, now: Date) throws -> String {
        let iat = now.timeIntervalSince1970.rounded(.down)
        let claims: [String: JSONValue] = [
            "iss": .string(issuer),
            "sub": .string(subject.userId),
            "aud": .string(issuer),
            "client_id": .string(subject.clientId),
            "iat": .number(iat),
            "exp": .number(iat + lifetimes.accessToken.rounded()),
            "jti": .string(SecureRandom.identifier(prefix: "at")),
            "auth_time": .number(Double(subject.authTime / 1000)),
            "amr": .array(subject.amr.map(JSONValue.string)),
            "scope": .string(subject.scope),
            "sid": .string(subject.sessionId),
        ]
        var bound = claims
        if subject.isAnonymous { bound["is_anonymous"] = .bool(true) }
        if let jkt = subject.dpopJkt { bound["cnf"] = .object(["jkt": .string(jkt)]) }
        return try sign(bound, type: "at+jwt", algorithm: .es256)
    }

    /// The ID token, signed with the current key of `algorithm`.
    func idToken(
        for subject: Subject, issuer: String, accessToken: String, now: Date, algorithm: SigningAlgorithm = .es256
    ) throws -> String {
        let iat = now.timeIntervalSince1970.rounded(.down)
        var claims: [String: JSONValue] = [
            "iss": .string(issuer),
            "sub": .string(subject.userId),
            "aud": .string(subject.clientId),
            "azp": .string(subject.clientId),
            "iat": .number(iat),
            "exp": .number(iat + lifetimes.idToken.rounded()),
            "auth_time": .number(Double(subject.authTime / 1000)),
            "amr": .array(subject.amr.map(JSONValue.string)),
            "acr": .string(AuthenticationContextClass.of(amr: subject.amr)),
            "sid": .string(subject.sessionId),
            "at_hash": .string(Self.atHash(accessToken)),
        ]
        if let nonce = subject.nonce { claims["nonce"] = .string(nonce) }
        if subject.isAnonymous { claims["is_anonymous"] = .bool(true) }
        // The claims of the granted scopes, as UserInfo gives them (``ReleasedClaims``).
        let released = ReleasedClaims(
            scopes: Set(subject.scope.split(separator: " ").map(String.init)), email: subject.email,
            emailVerified: subject.emailVerified, verifiedPhone: subject.phoneNumber)
        if let email = released.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(released.emailVerified ?? false)
        }
        if let phone = released.phoneNumber {
            claims["phone_number"] = .string(phone)
            claims["phone_number_verified"] = .bool(true)
        }
        return try sign(claims, type: "JWT", algorithm: algorithm)
    }

    /// OpenID Connect Core §3.1.3.6: base64url of the left half of SHA-256 of the token.
    static func atHash(_ token: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(token.utf8))).prefix(16))
    }

    private func sign(_ claims: [String: JSONValue], type: String, algorithm: SigningAlgorithm) throws -> String {
        let payload = Data(JSONValue.object(claims).serialized().utf8)
        return try keys.signing(algorithm).sign(payload: payload, header: ["typ": .string(type)])
    }
}
