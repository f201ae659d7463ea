// Methods/Federation/Upstream/ — talking to upstream OpenID Connect providers: records, discovery, tokens.
//
// - `IdentityProvider.swift`: a project's provider (`IdentityProviderRecord`): presets, claims, Apple's key.
// - `ProviderDiscovery.swift`: a provider's discovery document, fetched and cached.
// - `UpstreamIDToken.swift`: a provider's ID token verified into an `UpstreamIdentity`.
// - `UpstreamTokenClient.swift`: the provider's code redeemed with PKCE and the client's secret.
