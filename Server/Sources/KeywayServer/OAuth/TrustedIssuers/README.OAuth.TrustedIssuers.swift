// OAuth/TrustedIssuers/ — external issuers whose JWTs token exchange (RFC 8693) accepts for Keyway tokens.
//
// - `ExternalTokenVerifier.swift`: an external JWT's signature, `iss`, `aud`, `exp`, `nbf`, `iat`, `sub`.
// - `TrustedIssuerRepository.swift`: trusted issuers and the external identities linked to users.
// - `TrustedIssuer.swift`: an issuer, its audience, keys and linking rules; `trustIssuer(_:)`.
