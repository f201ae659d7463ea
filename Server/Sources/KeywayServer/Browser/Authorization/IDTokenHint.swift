import Foundation
import KeywayJOSE
import KeywayProtocol

/// An `id_token_hint`: an ID token this server issued, checked by signature and issuer. Its
/// expiry is not checked: a hint names a user, it does not authenticate one (OpenID Connect Core
/// §3.1.2.1; RP-Initiated Logout §2).
struct IDTokenHint: Sendable, Equatable {
    var subject: String
    var audience: [String]
    var sessionId: String?

    /// The hint's claims, or `nil` when `token` is not an ID token signed by one of `keys`'
    /// published keys for `issuer`.
    init?(_ token: String, keys: SigningKeyRing, issuer: String) {
        guard token.utf8.count <= 8192, let jws = try? CompactJWS(token), jws.type != "at+jwt", let kid = jws.keyID,
            let key = keys.jwks().keys.first(where: { $0.kid == kid }), (try? jws.verify(with: key)) != nil,
            case .object(let claims) = try? JSONDecoder().decode(JSONValue.self, from: jws.payload),
            claims["iss"]?.stringValue == issuer, let subject = claims["sub"]?.stringValue
        else { return nil }
        self.subject = subject
        switch claims["aud"] {
        case .string(let single)?: audience = [single]
        case .array(let values)?: audience = values.compactMap(\.stringValue)
        default: return nil
        }
        sessionId = claims["sid"]?.stringValue
    }
}
