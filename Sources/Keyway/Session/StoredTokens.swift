import Foundation
import KeywayJOSE
import KeywayProtocol

/// What a ``KeywaySession`` stores for a signed-in account: the token response of its latest
/// sign-in or refresh, and the claims of its verified ID token. The user's ID, email address and
/// guest flag stay written under their names of old too, so that an earlier SDK still reads the
/// entry. An entry written before the claims were kept takes them from its stored ID token,
/// verified when it was saved, when that token is its user's.
struct StoredTokens: Codable, Sendable, Equatable {
    var accessToken: Sensitive<String>
    var refreshToken: Sensitive<String>?
    var idToken: Sensitive<String>?
    var accessTokenExpiresAt: Date
    var subject: String
    var email: String?
    var emailVerified: Bool?
    var isAnonymous: Bool?
    /// The response's `token_type` (`Bearer` or `DPoP`); absent in older entries.
    var tokenType: String?
    /// The response's `scope`, when it had one.
    var scope: String?
    /// The verified ID token's claims.
    var claims: IDTokenClaims

    /// The entry of verified tokens.
    init(_ set: TokenSet) {
        accessToken = set.response.accessToken
        refreshToken = set.response.refreshToken
        idToken = set.response.idToken
        accessTokenExpiresAt = set.accessTokenExpiresAt
        subject = set.idToken.subject
        email = set.idToken.email
        emailVerified = set.idToken.emailVerified
        isAnonymous = set.idToken.isAnonymous
        tokenType = set.response.tokenType
        scope = set.response.scope
        claims = set.idToken
    }

    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, idToken, accessTokenExpiresAt, subject, email, emailVerified, isAnonymous
        case tokenType, scope, claims
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(Sensitive<String>.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(Sensitive<String>.self, forKey: .refreshToken)
        idToken = try container.decodeIfPresent(Sensitive<String>.self, forKey: .idToken)
        accessTokenExpiresAt = try container.decode(Date.self, forKey: .accessTokenExpiresAt)
        subject = try container.decode(String.self, forKey: .subject)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        isAnonymous = try container.decodeIfPresent(Bool.self, forKey: .isAnonymous)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        if let claims = try container.decodeIfPresent(IDTokenClaims.self, forKey: .claims) {
            self.claims = claims
        } else if let stored = idToken.flatMap({ IDTokenClaims(verifiedToken: $0.revealed) }), stored.subject == subject {
            claims = stored
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: .claims, in: container, debugDescription: "The entry has neither claims nor a readable ID token.")
        }
    }

    /// The entry as a token set. `expiresIn` is what is left of the access token's lifetime at
    /// `now`; an entry without its `token_type` says `DPoP` for a bound token, else `Bearer`.
    func tokenSet(now: Date) -> TokenSet {
        let left = max(0, Int(accessTokenExpiresAt.timeIntervalSince(now).rounded(.down)))
        let type = tokenType ?? (TokenClient.isDPoPBound(accessToken.revealed) ? "DPoP" : "Bearer")
        return TokenSet(
            response: TokenResponse(
                accessToken: accessToken, tokenType: type, expiresIn: left, idToken: idToken, refreshToken: refreshToken,
                scope: scope, issuedTokenType: nil),
            idToken: claims, accessTokenExpiresAt: accessTokenExpiresAt)
    }
}
