import Foundation
import KeywayJOSE
import KeywayProtocol

/// What a provider's verified ID token says about the user.
struct UpstreamIdentity: Sendable, Equatable, Codable {
    /// The configured issuer (for Google, the same whichever spelling the token used).
    var issuer: String
    var subject: String
    /// The normalized address, when the token carries a valid one.
    var email: String?
    var emailVerified: Bool
    var name: String?
    var picture: String?
}

/// Verifies a provider's ID token: the signature against its key set (a set of one key without
/// `kid` works), `iss` (the preset's variants), `aud` = the client ID (and `azp` when there are
/// several audiences), `exp`, `iat` not more than 60 s ahead, and the `nonce` of the request.
enum UpstreamIDTokenVerifier {
    static let leeway: Int64 = 60

    /// Why an ID token was refused, as a sentence for the user and the logs.
    struct Refusal: Error, Sendable, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The token's `kid`, to look its key up (refetching the set on an unknown one).
    static func keyID(of token: String) -> String? {
        (try? CompactJWS(token))?.keyID
    }

    static func verify(
        _ token: String, provider: IdentityProviderRecord, keys: [JSONWebKey], nonce: String, now: Int64
    ) throws -> UpstreamIdentity {
        guard !token.isEmpty, token.count <= ExternalTokenVerifier.maximumLength, let jws = try? CompactJWS(token) else {
            throw Refusal("The provider's ID token is not a signed JWT.")
        }
        guard let algorithm = jws.algorithm, JWKSignatures.supportedAlgorithms.contains(algorithm) else {
            throw Refusal("The provider's ID token is signed with \(jws.algorithm ?? "no algorithm"), which is not accepted.")
        }
        guard let key = key(for: jws, in: keys) else {
            throw Refusal("No key of the provider matches its ID token.")
        }
        do {
            try JWKSignatures.verify(jws, with: key)
        } catch {
            throw Refusal("The provider's ID token signature does not verify.")
        }
        guard case .object(let claims)? = try? JSONDecoder().decode(JSONValue.self, from: jws.payload) else {
            throw Refusal("The provider's ID token has no claims.")
        }
        guard let iss = claims["iss"]?.stringValue, provider.preset.acceptedIssuers(provider.issuer).contains(iss) else {
            throw Refusal("The provider's ID token names another issuer.")
        }
        let audiences: [String]
        switch claims["aud"] {
        case .string(let audience)?: audiences = [audience]
        case .array(let values)?: audiences = values.compactMap(\.stringValue)
        default: audiences = []
        }
        guard audiences.contains(provider.clientId) else {
            throw Refusal("The provider's ID token was issued for another client.")
        }
        if audiences.count > 1, claims["azp"]?.stringValue != provider.clientId {
            throw Refusal("The provider's ID token was issued for another party (azp).")
        }
        let seconds = now / 1000
        guard let exp = claims["exp"]?.numericDate, seconds < exp + leeway else {
            throw Refusal("The provider's ID token has expired.")
        }
        guard let iat = claims["iat"]?.numericDate else {
            throw Refusal("The provider's ID token has no issue time (iat).")
        }
        guard iat <= seconds + leeway else {
            throw Refusal("The provider's ID token was issued in the future (iat).")
        }
        guard let tokenNonce = claims["nonce"]?.stringValue,
            ConstantTime.equals(Array(tokenNonce.utf8), Array(nonce.utf8))
        else {
            throw Refusal("The provider's ID token does not carry this sign-in's nonce.")
        }
        let mapping = provider.claims
        guard let subject = claims[mapping.subject]?.stringValue, !subject.isEmpty, subject.count <= 255 else {
            throw Refusal("The provider's ID token has no subject.")
        }
        let email = claims[mapping.email]?.stringValue.flatMap(EmailAddress.normalize)
        let verified: Bool
        switch claims[mapping.emailVerified] {
        case .bool(let value)?: verified = value
        // Apple sends the flag as a string.
        case .string(let value)?: verified = value == "true"
        default: verified = false
        }
        let name = claims[mapping.name]?.stringValue.map { String($0.prefix(200)) }
        let picture = claims[mapping.picture]?.stringValue.flatMap { IdentityProviderRules.isValidIconURL($0) ? $0 : nil }
        return UpstreamIdentity(
            issuer: provider.issuer, subject: subject, email: email, emailVerified: email != nil && verified, name: name,
            picture: picture)
    }

    /// The key for `jws`: the one with its `kid`, or the set's only key of its type when the set
    /// names no `kid`s.
    static func key(for jws: CompactJWS, in keys: [JSONWebKey]) -> JSONWebKey? {
        if let key = try? JWKSignatures.key(for: jws, in: keys) { return key }
        let keyType = jws.algorithm == "RS256" ? "RSA" : "EC"
        let candidates = keys.filter { $0.kty == keyType }
        guard candidates.count == 1, let only = candidates.first, only.kid == nil else { return nil }
        return only
    }
}
