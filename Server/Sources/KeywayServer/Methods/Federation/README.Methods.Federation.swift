// Methods/Federation/ — signing in with a project's upstream OpenID Connect providers: the method `federation:<id>`.
//
// - `FederationCallbacks.swift`: the provider's answer outside flow transactions; the browser's callback.
// - `FederationMethod+BrowserCallback.swift`: `/v1/federation/callback`, where providers send the browser back.
// - `FederationMethod+Callback.swift`: the flow's `callback`: state checked, answer verified, then applied.
// - `FederationMethod+Family.swift`: the providers as one `MethodFamily`: members offered, identities listed.
// - `FederationMethod+HeldIdentities.swift`: identities linked before the address was proved, held.
// - `FederationMethod+Identity.swift`: an identity signs in, links, asks to sign in to link, or signs up.
// - `FederationMethod+LinkedIdentities.swift`: `unlinkIdentity` and `keepIdentity`, the family's account operations.
// - `FederationMethod.swift`: a `redirect` step to the provider (state, PKCE, nonce); `amr` `fed`.
// - `FederationSettings.swift`: which of the project's providers an application offers, in order.
// - `UpstreamOutcome.swift`: the stored result of a provider's answer: an identity or a refusal.
// - `HostedPages/`: the hosted pages' return from a provider (`GET /login/federation`).
// - `Storage/`: linked identities, federation states, identity providers.
// - `Upstream/`: the providers: records, discovery, ID token verification, code redemption.
