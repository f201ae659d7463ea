// Methods/Federation/HostedPages/ — the hosted pages' side of signing in with another provider.
//
// - `HostedLogin+Federation.swift`: `GET /login/federation`: the provider's `state` handed to the flow.
