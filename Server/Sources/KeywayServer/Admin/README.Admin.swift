// Admin/ — the admin API's service and models: applications, policies, tokens, projects, users and signing keys.
//
// - `AdminAuthorization.swift`: the guard of every `/admin/*` route: the admin bearer token.
// - `AdminCredential.swift`: the admin token (`kad_…`), only its SHA-256 hash stored in `server_secrets`.
// - `AdminError.swift`: why an admin operation failed, for the routes and the subcommands alike.
// - `AdminIdentityProviders.swift`: the bodies of a project's identity providers: requests and resources.
// - `AdminProblem.swift`: the admin API's problem codes and documents.
// - `AdminRequests.swift`: request bodies: applications, invite codes, start tokens, themes, registration.
// - `AdminResources.swift`: what the API answers: `AdminApplication`, `AdminUser`, issued tokens, messages.
// - `AdminService+ApplicationSettings.swift`: an application's settings, read and changed, each validated.
// - `AdminService+IdentityProviders.swift`: identity providers added, changed, deleted; secrets sealed.
// - `AdminService+ProfileSchema.swift`: a project's profile schema, read and replaced.
// - `AdminService+ProjectTheme.swift`: a project's hosted-page theme, read and changed.
// - `AdminService+RegistrationTokens.swift`: initial access tokens of dynamic registration: issued, revoked.
// - `AdminService+Schema.swift`: `keyway-server migrate` and `migrate status`.
// - `AdminService+SigningKeys.swift`: signing keys listed, and one algorithm's key rotated.
// - `AdminService.swift`: `AdminService`: applications, policies, codes, tokens, users and devices.
// - `PolicyRejection.swift`: the `422` answer to a refused policy, with each problem's code.
// - `ProjectTheme.swift`: the rules of a `HostedTheme` stored as JSON in `projects.theme`.
// - `Routes/`: the `/admin` HTTP routes, one file per resource.
//
// `AdminService` is pure logic over the database, one write transaction per change: the routes in
// `Routes/` and the `keyway-server project …` and `admin …` subcommands both call it.
