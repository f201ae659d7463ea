// HTTP/Routes/ — routes: the flow API, OAuth endpoints, well-known documents, user, device and health routes.
//
// - `AppAttestRoutes.swift`: `POST /v1/app-attest/challenges` and `POST /v1/app-attest/keys`.
// - `DevRoutes.swift`: `GET /dev/outbox`, dev mode only.
// - `DeviceRoutes.swift`: device approvals signed by a device key or PowerAuth, and `/v1/me/devices`.
// - `FlowRoutes.swift`: the flow API under `/v1/flows`, each method's input (a method registers its own routes, outside `/v1/flows` too).
// - `GuestRoutes.swift`: `POST /v1/guests`: a new guest and its tokens.
// - `HealthRoutes.swift`: `GET /health/live`, `/health/ready` and `/health` for load balancers.
// - `MetricsRoutes.swift`: `GET /metrics` in the Prometheus text format.
// - `OAuthRoutes.swift`: the token, revocation, introspection and registration endpoints.
// - `OpenAPIRoutes.swift`: `GET /openapi.json`, the bundled OpenAPI 3.1 document.
// - `UserRoutes.swift`: `/oauth2/userinfo`, the profile at `/v1/me`, and `DELETE /v1/me/sessions`.
// - `WellKnownRoutes.swift`: OpenID Connect Discovery, RFC 8414 metadata and the JWKS.
