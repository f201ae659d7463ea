// KeywayServer/ — the Keyway server as a library: flows, methods, OpenID Provider, hosted pages, PowerAuth, storage.
//
// - `Access/`: who may call a route: `Caller` and the guards that check it before a handler runs.
// - `Admin/`: the admin API: `AdminService`, its models, and a file per resource in `Routes/`.
// - `App/`: start-up (`KeywayServerApp`), configuration, dev provisioning, application registration.
// - `Browser/`: the browser front door: authorization requests, browser sessions, hosted pages.
// - `Delivery/`: the outbox, its worker and providers (webhook, command, SMTP), message templates.
// - `Devices/`: trusted devices outside flows: approvals, device signatures, App Attest.
// - `Flows/`: the flow engine: state, `FlowSequence`, the method protocol, the registry, policies.
// - `Guests/`: guest accounts, made by `POST /v1/guests` and swept when never upgraded.
// - `HTTP/`: the route table, request context, decoding, CORS, trusted proxies, request log, routes.
// - `Methods/`: one folder per sign-in method, with its settings.
// - `OAuth/`: the OpenID Provider: token endpoint and its grants, keys, revocation, registration.
// - `Observability/`: metrics, and where they are exported.
// - `PowerAuth/`: `/pa/v3` and `/v1/powerauth`, a folder per capability plus `Backend/` and `Admin/`.
// - `Profiles/`: profile schemas and user profiles.
// - `Resources/`: `openapi.json`, and the hosted pages' templates, stylesheet, script and strings.
// - `Storage/`: `Database`, SQLite and PostgreSQL, migrations, shared repositories, the sweep.
// - `Support/`: identifiers, randomness, secrets at rest, locks, child processes, logging, the clock.
//
// Start at `App/KeywayServerApp.swift`; `docs/architecture.md` describes a request's path and the
// rules the folders keep.
