// Admin/Routes/ — the admin API's HTTP routes under `/admin`, one file per resource, each calling `AdminService`.
//
// - `AdminRoutes+ApplicationTokens.swift`: an application's invite codes, start and registration tokens.
// - `AdminRoutes+Applications.swift`: applications listed, created, read and changed; their policies.
// - `AdminRoutes+Delivery.swift`: the outbox's dead letters and messages.
// - `AdminRoutes+IdentityProviders.swift`: a project's identity providers: created, read, changed, deleted.
// - `AdminRoutes+Projects.swift`: a project's hosted-page theme and profile schema.
// - `AdminRoutes+SigningKeys.swift`: signing keys listed and rotated.
// - `AdminRoutes+Users.swift`: users found by email, blocked and unblocked; their trusted devices revoked.
// - `AdminRoutes.swift`: every resource's routes behind `AdminAuthorization`; `AdminError`s answered.
