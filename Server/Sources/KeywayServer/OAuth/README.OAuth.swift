// OAuth/ — the OpenID Provider: token, revocation and introspection endpoints, tokens, keys, client authentication.
//
// - `AccessTokenVerifier.swift`: a Keyway access token (`at+jwt`) verified; `AccessTokenClaims`.
// - `AuthenticationContextClass.swift`: the `acr` of ID tokens: guest, one factor, two factors.
// - `AuthorizationCodeRedemption.swift`: a code redeemed once: client, expiry, PKCE, redirect URI.
// - `ClientAuthMethod.swift`: `none`, `client_secret_basic`, `client_secret_post`, the JWT methods.
// - `ClientAuthenticator.swift`: clients authenticated by secret or JWT assertion (RFC 7523).
// - `ClientSecretDerivation.swift`: `client_secret_jwt` secrets derived by HMAC, never stored.
// - `DPoPVerifier.swift`: DPoP proofs (RFC 9449) checked, stateless nonces, replays refused.
// - `FormURLEncoded.swift`: form bodies parsed; a parameter present twice is an error.
// - `IntrospectionEndpoint.swift`: `POST /oauth2/introspect` (RFC 7662), for confidential clients.
// - `JWKSFetcher.swift`: trusted issuers' key sets fetched and cached, refetches bounded.
// - `JWKSignatures.swift`: other parties' ES256 and RS256 signatures checked against their JWKs.
// - `OAuthFailure.swift`: an OAuth endpoint's error as RFC 6749 §5.2 JSON.
// - `RefreshTokenDerivation.swift`: a rotated refresh token's successor, derived by HMAC.
// - `RefreshTokenFamily.swift`: the first refresh token of a new family, and its lifetimes.
// - `RevocationEndpoint.swift`: `POST /oauth2/revoke` (RFC 7009).
// - `ServerSecretKey.swift`: the named 256-bit server secrets, sealed under the master key.
// - `SigningAlgorithm.swift`: `ES256` and `RS256`, each with keys and a rotation of its own.
// - `SigningKeyRing.swift`: the keys this instance signs and verifies with, read again to follow rotations.
// - `SigningKeys.swift`: a signing key (EC P-256 or RSA-2048), the keys' schedule, a rotation.
// - `TokenEndpoint.swift`: `POST /oauth2/token`: grant type and DPoP proof checked, then the grant.
// - `TokenIssuer.swift`: the RFC 9068 access token (ES256) and the OpenID Connect ID token minted.
// - `Grants/`: one file per grant type of the token endpoint, and `TokenGrants.all`.
// - `Registration/`: dynamic client registration (RFC 7591) and its initial access tokens.
// - `Storage/`: authorization codes, refresh tokens, revoked access tokens, signing keys and secrets.
// - `TrustedIssuers/`: external issuers whose JWTs token exchange accepts.
//
// The authorization endpoint and its hosted pages are in `Browser/`; the routes of these endpoints
// are in `HTTP/Routes/OAuthRoutes.swift`.
