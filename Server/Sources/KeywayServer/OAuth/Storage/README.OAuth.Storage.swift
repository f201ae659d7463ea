// OAuth/Storage/ — the OpenID Provider's rows: codes, refresh tokens, revoked access tokens, keys and secrets.
//
// - `AuthorizationCodeRecord.swift`: a code stored as its hash, with PKCE challenge, scope and nonce.
// - `AuthorizationCodeRepository.swift`: authorization codes by hash (`authorization_codes`).
// - `KeyRepository.swift`: signing keys and server secrets (`signing_keys`, `server_secrets`).
// - `RefreshTokenRecord.swift`: a refresh token stored as its hash, in a family revoked together.
// - `RefreshTokenRepository.swift`: refresh tokens by hash, grouped in families (`refresh_tokens`).
// - `RevokedAccessTokenRepository.swift`: access tokens revoked before expiry, by `jti`.
