// Storage/Migrations/ — the schema as ordered migrations, one file each, applied once at start-up.
//
// - `Migration01.swift`: the initial schema: projects, applications, users, flows, sessions, tokens, keys.
// - `Migration02.swift`: refresh token rotation: families, scope, successors, lifetimes.
// - `Migration03.swift`: access token revocation (`revoked_access_tokens`).
// - `Migration04.swift`: DPoP: applications' DPoP mode, bound refresh tokens, `dpop_proofs`.
// - `Migration05.swift`: user profiles (`profile_schemas`, `user_profiles`).
// - `Migration06.swift`: token exchange (`trusted_issuers`, `external_identities`).
// - `Migration07.swift`: dynamic client registration (`registration_tokens`, `client_assertions`).
// - `Migration08.swift`: rate limits (`rate_limits`).
// - `Migration09.swift`: application policies, invite codes and start tokens; blocked users.
// - `Migration10.swift`: the delivery outbox (`delivery_outbox`).
// - `Migration11.swift`: adaptive flows: users' phone, password and TOTP; flows' `progress`.
// - `Migration12.swift`: trusted devices and approvals.
// - `Migration13.swift`: the scope of an authorization code.
// - `Migration14.swift`: when a refresh token's answer went out.
// - `Migration15.swift`: App Attest challenges and keys.
// - `Migration16.swift`: signing key rotation.
// - `Migration17.swift`: the ID token algorithm and CORS origins per application.
// - `Migration18.swift`: the browser front door: redirect URIs, scopes, sessions, consents, PAR.
// - `Migration19.swift`: registration tokens administered: IDs and use counts.
// - `Migration20.swift`: PowerAuth: credentials, activations, recovery codes, temporary keys.
// - `Migration21.swift`: PowerAuth: tokens, replay records, recovery postcards and their PUKs.
// - `Migration22.swift`: federation: upstream providers, their identities and states.
// - `Migration23.swift`: sign-in links (`sign_in_links`).
// - `Migration24.swift`: guests: anonymous users and the application that made each.
// - `Migration25.swift`: passkeys (`passkey_credentials`).
// - `Migration26.swift`: backend roles granted to applications.
// - `Migration27.swift`: linked identities held until the address's owner keeps them.
// - `Migration28.swift`: the per-application PKCE requirement.
// - `Migration29.swift`: the logo and pages of a registered client.
// - `Migration30.swift`: refresh tokens indexed by their session, not their user.
// - `Migration31.swift`: the authorization code on a family's first refresh token only.
// - `Migrations.swift`: `Migrations`: the ordered list, applied and reported; `SchemaStatus`.
//
// The SQL runs unchanged on SQLite and PostgreSQL: `TEXT` and `BIGINT` columns, timestamps in
// milliseconds, flags as 0/1. A new migration is one file here and one line in `Migrations.all`.
