// Browser/ — the browser front door: authorization requests, browser sessions, the hosted pages and their tables.
//
// - `Authorization/`: authorization requests and responses, browser sessions, redirect URI and scope rules.
// - `HostedPages/`: `/oauth2/authorize`, `/oauth2/par`, `/oauth2/logout`, `/login` and `/account`.
// - `Storage/`: the rows of browser sessions, visits, consents, pushed requests and redirect URIs.
//
// The hosted pages are one more client of the flow engine: they send a step's actions through
// the flow API's own routes (`FlowAPIClient`), so they draw any step from its actions and fields.
