// Browser/Authorization/ — the OAuth side of a browser sign-in: the request, the answer to the client, the session.
//
// - `AuthorizationRequest.swift`: a validated authorization request, kept as JSON while the browser signs in.
// - `AuthorizationResponse.swift`: a code or an error sent to the redirect URI, as a `303` or `form_post`.
// - `BrowserSessions.swift`: browser sessions opened, found by cookie, ended; codes issued from them (SSO).
// - `IDTokenHint.swift`: an `id_token_hint` checked by signature and issuer, not by expiry.
// - `RedirectURI.swift`: which redirect URIs an application may register, and exact matching (RFC 8252).
// - `ReleasedClaims.swift`: the email, phone and profile claims a token's scopes release.
// - `Scopes.swift`: the supported scopes and claims, and a request's `scope` parsed for an application.
