// OAuth/Grants/ — the token endpoint's grants, one file each; an unknown `grant_type` can only be refused.
//
// - `AuthorizationCodeGrant.swift`: `authorization_code` with PKCE, and App Attest over the DPoP proof.
// - `RefreshTokenGrant.swift`: `refresh_token` with rotation, a grace period, reuse revoking the family.
// - `TokenExchangeGrant.swift`: token exchange (RFC 8693): a trusted issuer's JWT for Keyway tokens.
// - `TokenGrant.swift`: the `TokenGrant` protocol, `TokenRequest`, and `TokenGrants.all`.
