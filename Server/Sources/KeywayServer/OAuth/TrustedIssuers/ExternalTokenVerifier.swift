import Foundation
import KeywayJOSE
import KeywayProtocol

/// Verifies a JWT from a trusted external issuer: signature against the issuer's keys, `iss`,
/// `aud`, `exp`, `nbf`, `iat` and `sub`.
struct ExternalTokenVerifier: Sendable {
    /// Clock skew tolerated on `exp`, `nbf` and `iat`.
    static let leeway: Int64 = 60
    /// The longest token accepted, in characters.
    static let maximumLength = 16_384

    /// The identity a verified token asserts.
    struct Identity: Sendable, Equatable {
        var issuer: String
        var subject: String
        /// The normalized email, when the token carries a valid one.
        var email: String?
        var emailVerified: Bool
    }

    /// Why a token was refused; the message is for the developer.
    struct Refusal: Error, Sendable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// A token parsed but not yet verified, and the issuer it claims.
    struct Parsed: Sendable {
        let jws: CompactJWS
        let claims: [String: JSONValue]
        var claimedIssuer: String? { claims["iss"]?.stringValue }
    }

    static func parse(_ token: String) throws -> Parsed {
        guard !token.isEmpty, token.count <= maximumLength else {
            throw Refusal("The subject token is empty or too long.")
        }
        let jws: CompactJWS
        do {
            jws = try CompactJWS(token)
        } catch {
            throw Refusal("The subject token is not a signed JWT.")
        }
        guard case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: jws.payload) else {
            throw Refusal("The subject token's payload is not a JSON object.")
        }
        return Parsed(jws: jws, claims: claims)
    }

    /// Verifies the token against the trusted issuer's configuration and its current `keys`.
    static func verify(
        _ parsed: Parsed, against trusted: TrustedIssuerRepository.Issuer, keys: [JSONWebKey], now: Int64
    ) throws -> Identity {
        let jws = parsed.jws
        guard let algorithm = jws.algorithm, JWKSignatures.supportedAlgorithms.contains(algorithm) else {
            throw Refusal("The subject token's algorithm \(jws.algorithm ?? "(none)") is not accepted; use ES256 or RS256.")
        }
        if let crit = jws.header["crit"], crit != .null {
            throw Refusal("The subject token has critical header parameters this server does not understand.")
        }
        let key: JSONWebKey
        do {
            key = try JWKSignatures.key(for: jws, in: keys)
        } catch {
            throw Refusal("No key of the issuer matches the subject token's kid.")
        }
        do {
            try JWKSignatures.verify(jws, with: key)
        } catch {
            throw Refusal("The subject token's signature does not verify.")
        }
        let claims = parsed.claims
        guard claims["iss"]?.stringValue == trusted.issuer else {
            throw Refusal("The subject token's issuer is not trusted.")
        }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let audience)?: audiences = [audience]
        case .array(let values)?: audiences = values.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(trusted.audience) else {
            throw Refusal("The subject token was not issued for this audience.")
        }
        let seconds = now / 1000
        guard let exp = claims["exp"]?.numericDate else {
            throw Refusal("The subject token has no expiry (exp).")
        }
        guard seconds < exp + leeway else { throw Refusal("The subject token has expired.") }
        if let nbf = claims["nbf"] {
            guard let value = nbf.numericDate, value <= seconds + leeway else {
                throw Refusal("The subject token is not valid yet (nbf).")
            }
        }
        if let iat = claims["iat"] {
            guard let value = iat.numericDate, value <= seconds + leeway else {
                throw Refusal("The subject token was issued in the future (iat).")
            }
        }
        guard let subject = claims["sub"]?.stringValue, !subject.isEmpty, subject.count <= 255 else {
            throw Refusal("The subject token has no valid subject (sub).")
        }
        let email = claims["email"]?.stringValue.flatMap(EmailAddress.normalize)
        let verified: Bool
        switch claims["email_verified"] {
        case .bool(let value)?: verified = value
        // Some issuers send the flag as a string.
        case .string(let value)?: verified = value == "true"
        default: verified = false
        }
        return Identity(issuer: trusted.issuer, subject: subject, email: email, emailVerified: email != nil && verified)
    }
}
