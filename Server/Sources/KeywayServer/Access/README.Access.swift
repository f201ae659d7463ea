// Access/ — who may call a route: the `Caller` each route declares and the guards that check it before its handler.
//
// - `AccessGuards.swift`: picks the guard of a route's declared `Caller`; `GuardedResponder` runs it first.
// - `AccessTokenAuthenticator.swift`: verifies a Bearer or DPoP-bound access token into a `SignedInUser`.
// - `AccessTokenAuthorization.swift`: the guard of `user` and `account` routes (the latter first-party only).
// - `BackendAuthorization.swift`: the guard of `backend(_:)`: a confidential application holding the role.
// - `BackendRole.swift`: what an app's backend may do beyond other clients: `powerauth`, `introspection`.
// - `Caller.swift`: `Caller`, who may call a route: anyone, a flow, a browser, a user, a client, the admin, …
// - `ClientAuthorization.swift`: the guard of client routes: the form read once, the client authenticated.
// - `MetricsAuthorization.swift`: the guard of `metrics`: the metrics token or the admin token.
//
// A handler never authenticates its caller itself: it reads what the guard found from its
// `KeywayRequestContext`. The admin token's guard, `AdminAuthorization`, lives in `Admin/`.
