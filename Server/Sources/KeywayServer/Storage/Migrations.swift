import Foundation
import SQLKit

/// The schema, as an ordered list of migrations applied once each at start-up.
///
/// The SQL is written to run unchanged on SQLite and PostgreSQL: `TEXT` and `BIGINT` columns only,
/// timestamps as milliseconds since 1970, flags as 0/1.
enum Migrations {
    struct Migration: Sendable {
        let version: Int
        let name: String
        let statements: [String]
    }

    static let all: [Migration] = [
        Migration(
            version: 1, name: "initial schema",
            statements: [
                """
                CREATE TABLE projects (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    is_dev BIGINT NOT NULL DEFAULT 0,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE applications (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    config_id TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    client_type TEXT NOT NULL,
                    client_secret_hash TEXT,
                    flow_types TEXT NOT NULL,
                    auto_create_users BIGINT NOT NULL DEFAULT 0,
                    is_dev BIGINT NOT NULL DEFAULT 0,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    email TEXT NOT NULL,
                    email_verified BIGINT NOT NULL DEFAULT 0,
                    created_at BIGINT NOT NULL,
                    UNIQUE (project_id, email)
                )
                """,
                """
                CREATE TABLE flows (
                    id TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL REFERENCES applications(id),
                    flow_type TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    user_id TEXT,
                    state TEXT NOT NULL,
                    token_hash TEXT NOT NULL,
                    code_challenge TEXT NOT NULL,
                    otp_hash TEXT,
                    otp_expires_at BIGINT,
                    resend_at BIGINT,
                    resend_count BIGINT NOT NULL DEFAULT 0,
                    failed_attempts BIGINT NOT NULL DEFAULT 0,
                    session_id TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX flows_expires_at ON flows (expires_at)",
                """
                CREATE TABLE sessions (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    application_id TEXT NOT NULL REFERENCES applications(id),
                    amr TEXT NOT NULL,
                    auth_time BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                """
                CREATE TABLE authorization_codes (
                    code_hash TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL REFERENCES applications(id),
                    user_id TEXT NOT NULL REFERENCES users(id),
                    session_id TEXT NOT NULL REFERENCES sessions(id),
                    flow_id TEXT NOT NULL,
                    code_challenge TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    created_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX authorization_codes_expires_at ON authorization_codes (expires_at)",
                """
                CREATE TABLE refresh_tokens (
                    id TEXT PRIMARY KEY,
                    token_hash TEXT NOT NULL UNIQUE,
                    application_id TEXT NOT NULL REFERENCES applications(id),
                    user_id TEXT NOT NULL REFERENCES users(id),
                    session_id TEXT NOT NULL REFERENCES sessions(id),
                    authorization_code_hash TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX refresh_tokens_code ON refresh_tokens (authorization_code_hash)",
                """
                CREATE TABLE signing_keys (
                    kid TEXT PRIMARY KEY,
                    algorithm TEXT NOT NULL,
                    private_key TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    retired_at BIGINT
                )
                """,
                """
                CREATE TABLE server_secrets (
                    name TEXT PRIMARY KEY,
                    value TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
            ]),
        Migration(
            version: 2, name: "refresh token rotation",
            statements: [
                "ALTER TABLE refresh_tokens ADD COLUMN family_id TEXT",
                "ALTER TABLE refresh_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'openid email offline_access'",
                "ALTER TABLE refresh_tokens ADD COLUMN family_expires_at BIGINT",
                "ALTER TABLE refresh_tokens ADD COLUMN rotated_at BIGINT",
                "ALTER TABLE refresh_tokens ADD COLUMN successor_id TEXT",
                "UPDATE refresh_tokens SET family_id = id, family_expires_at = expires_at",
                "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)",
                "CREATE INDEX refresh_tokens_family_expires_at ON refresh_tokens (family_expires_at)",
                "ALTER TABLE applications ADD COLUMN refresh_absolute_ms BIGINT",
                "ALTER TABLE applications ADD COLUMN refresh_idle_ms BIGINT",
                "ALTER TABLE applications ADD COLUMN refresh_grace_ms BIGINT",
            ]),
        Migration(
            version: 3, name: "access token revocation",
            statements: [
                """
                CREATE TABLE revoked_access_tokens (
                    jti TEXT PRIMARY KEY,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX revoked_access_tokens_expires_at ON revoked_access_tokens (expires_at)",
                "CREATE INDEX sessions_user ON sessions (user_id)",
                "CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id)",
            ]),
        Migration(
            version: 4, name: "DPoP",
            statements: [
                "ALTER TABLE applications ADD COLUMN dpop_mode TEXT NOT NULL DEFAULT 'optional'",
                "ALTER TABLE applications ADD COLUMN dpop_require_nonce BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE refresh_tokens ADD COLUMN dpop_jkt TEXT",
                """
                CREATE TABLE dpop_proofs (
                    proof_hash TEXT PRIMARY KEY,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX dpop_proofs_expires_at ON dpop_proofs (expires_at)",
            ]),
        Migration(
            version: 5, name: "user profiles",
            statements: [
                """
                CREATE TABLE profile_schemas (
                    project_id TEXT PRIMARY KEY REFERENCES projects(id),
                    fields TEXT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE user_profiles (
                    user_id TEXT PRIMARY KEY REFERENCES users(id),
                    data TEXT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
            ]),
        Migration(
            version: 6, name: "token exchange",
            statements: [
                """
                CREATE TABLE trusted_issuers (
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    issuer TEXT NOT NULL,
                    audience TEXT NOT NULL,
                    jwks TEXT,
                    jwks_url TEXT,
                    link_by_email BIGINT NOT NULL,
                    create_users BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (project_id, issuer)
                )
                """,
                """
                CREATE TABLE external_identities (
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    issuer TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    created_at BIGINT NOT NULL,
                    PRIMARY KEY (project_id, issuer, subject)
                )
                """,
            ]),
        Migration(
            version: 7, name: "dynamic client registration",
            statements: [
                "ALTER TABLE applications ADD COLUMN auth_method TEXT",
                "ALTER TABLE applications ADD COLUMN assertion_alg TEXT",
                "ALTER TABLE applications ADD COLUMN client_secret_salt TEXT",
                "ALTER TABLE applications ADD COLUMN jwks TEXT",
                "ALTER TABLE applications ADD COLUMN grant_types TEXT",
                "ALTER TABLE applications ADD COLUMN template_id TEXT",
                """
                CREATE TABLE registration_tokens (
                    token_hash TEXT PRIMARY KEY,
                    template_application_id TEXT NOT NULL REFERENCES applications(id),
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT
                )
                """,
                """
                CREATE TABLE client_assertions (
                    assertion_hash TEXT PRIMARY KEY,
                    expires_at BIGINT NOT NULL
                )
                """,
            ]),
        Migration(
            version: 8, name: "rate limits",
            statements: [
                """
                CREATE TABLE rate_limits (
                    bucket TEXT PRIMARY KEY,
                    window_start BIGINT NOT NULL,
                    hits BIGINT NOT NULL
                )
                """,
            ]),
        Migration(
            version: 9, name: "application policies and admin API",
            statements: [
                """
                CREATE TABLE application_policies (
                    application_id TEXT PRIMARY KEY REFERENCES applications(id),
                    policy TEXT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE invite_codes (
                    code_hash TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL REFERENCES applications(id),
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT,
                    used_by_user_id TEXT
                )
                """,
                "CREATE INDEX invite_codes_expires_at ON invite_codes (expires_at)",
                """
                CREATE TABLE start_tokens (
                    token_hash TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL REFERENCES applications(id),
                    flow_type TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                )
                """,
                "CREATE INDEX start_tokens_expires_at ON start_tokens (expires_at)",
                "ALTER TABLE users ADD COLUMN blocked_at BIGINT",
            ]),
        Migration(
            version: 10, name: "delivery outbox",
            statements: [
                // `subject`, `body` and `code` carry a one-time code: they are emptied once the
                // message is delivered or dead.
                """
                CREATE TABLE delivery_outbox (
                    id TEXT PRIMARY KEY,
                    project_id TEXT NOT NULL,
                    flow_id TEXT,
                    channel TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    body TEXT NOT NULL,
                    code TEXT,
                    idempotency_key TEXT NOT NULL UNIQUE,
                    status TEXT NOT NULL,
                    attempts BIGINT NOT NULL DEFAULT 0,
                    next_attempt_at BIGINT NOT NULL,
                    lease_until BIGINT,
                    last_error TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    delivered_at BIGINT
                )
                """,
                "CREATE INDEX delivery_outbox_due ON delivery_outbox (status, next_attempt_at)",
                "CREATE INDEX delivery_outbox_dead ON delivery_outbox (project_id, status)",
            ]),
        Migration(
            version: 11, name: "adaptive flows",
            statements: [
                // Methods on the account. A user known by phone only keeps `#<id>` in `email`
                // (see UserRepository), since the column is not null and unique per project.
                "ALTER TABLE users ADD COLUMN phone TEXT",
                "ALTER TABLE users ADD COLUMN phone_verified BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE users ADD COLUMN password_hash TEXT",
                "ALTER TABLE users ADD COLUMN totp_secret TEXT",
                "ALTER TABLE users ADD COLUMN totp_last_counter BIGINT",
                "CREATE UNIQUE INDEX users_project_phone ON users (project_id, phone)",
                // Where the flow stands (JSON of FlowProgress).
                "ALTER TABLE flows ADD COLUMN progress TEXT",
                // Where sessions came from, hashed, for the risk assessment.
                "ALTER TABLE sessions ADD COLUMN client_address_hash TEXT",
                "CREATE INDEX sessions_user_address ON sessions (user_id, client_address_hash)",
            ]),
        Migration(
            version: 12, name: "trusted devices and approvals",
            statements: [
                // A device key's public half (JWK JSON) proves the device; the private key never
                // leaves the device.
                """
                CREATE TABLE trusted_devices (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL,
                    application_id TEXT NOT NULL,
                    public_key TEXT NOT NULL,
                    key_thumbprint TEXT NOT NULL,
                    name TEXT NOT NULL,
                    user_agent TEXT,
                    hardware_backed BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    trusted_until BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX trusted_devices_user ON trusted_devices (user_id, application_id)",
                // One row per approval request; the QR secret is kept as a SHA-256 hash.
                """
                CREATE TABLE approval_requests (
                    id TEXT PRIMARY KEY,
                    flow_id TEXT NOT NULL,
                    application_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    matching_number TEXT NOT NULL,
                    qr_secret_hash TEXT NOT NULL,
                    state TEXT NOT NULL,
                    location TEXT,
                    user_agent TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    decided_at BIGINT,
                    decided_by_device_id TEXT
                )
                """,
                "CREATE INDEX approval_requests_user ON approval_requests (user_id, state, expires_at)",
                // Signed list requests already answered, so a captured one cannot be replayed.
                """
                CREATE TABLE device_request_signatures (
                    signature_hash TEXT PRIMARY KEY,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX device_request_signatures_expires_at ON device_request_signatures (expires_at)",
            ]),
        Migration(
            version: 13, name: "the scope of an authorization code",
            statements: [
                // NULL: a sign-in's code, redeemed for the sign-in scope.
                "ALTER TABLE authorization_codes ADD COLUMN scope TEXT"
            ]),
        Migration(
            version: 14, name: "when a refresh token's answer went out",
            statements: [
                // NULL: the answer is not known to have gone out (tokens from before included).
                "ALTER TABLE refresh_tokens ADD COLUMN answered_at BIGINT"
            ]),
        Migration(
            version: 15, name: "App Attest challenges and keys",
            statements: [
                """
                CREATE TABLE app_attest_challenges (
                    challenge_hash TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX app_attest_challenges_expires_at ON app_attest_challenges (expires_at)",
                """
                CREATE TABLE app_attest_keys (
                    key_id TEXT NOT NULL,
                    application_id TEXT NOT NULL,
                    public_key TEXT NOT NULL,
                    app_id TEXT NOT NULL,
                    environment TEXT NOT NULL,
                    receipt TEXT NOT NULL,
                    counter BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    PRIMARY KEY (application_id, key_id)
                )
                """,
            ]),
        Migration(
            version: 16, name: "signing key rotation",
            statements: [
                // NULL: the key signs from its creation (keys from before rotation).
                "ALTER TABLE signing_keys ADD COLUMN activates_at BIGINT",
                // NULL: published as long as it is not retired (and then until this time).
                "ALTER TABLE signing_keys ADD COLUMN publish_until BIGINT",
            ]),
        Migration(
            version: 17, name: "ID token algorithm and CORS origins per application",
            statements: [
                // NULL: ES256, as every ID token was signed before.
                "ALTER TABLE applications ADD COLUMN id_token_signed_response_alg TEXT",
                // The origins (`scheme://host[:port]`) whose scripts may call the token, UserInfo
                // and revocation endpoints for the application.
                """
                CREATE TABLE application_cors_origins (
                    application_id TEXT NOT NULL REFERENCES applications(id),
                    origin TEXT NOT NULL,
                    PRIMARY KEY (application_id, origin)
                )
                """,
                "CREATE INDEX application_cors_origins_origin ON application_cors_origins (origin)",
            ]),
        Migration(
            version: 18, name: "the browser front door: redirect URIs, scopes, browser sessions, consents, PAR",
            statements: [
                // Registered redirect URIs per application: `login` (authorization responses) and
                // `logout` (post-logout redirects), each matched exactly.
                """
                CREATE TABLE application_redirect_uris (
                    application_id TEXT NOT NULL REFERENCES applications(id),
                    kind TEXT NOT NULL,
                    uri TEXT NOT NULL,
                    PRIMARY KEY (application_id, kind, uri)
                )
                """,
                // NULL: every scope the server supports.
                "ALTER TABLE applications ADD COLUMN allowed_scopes TEXT",
                "ALTER TABLE applications ADD COLUMN require_par BIGINT NOT NULL DEFAULT 0",
                // Applications the project's administrators made skip consent; dynamically
                // registered clients do not.
                "ALTER TABLE applications ADD COLUMN first_party BIGINT NOT NULL DEFAULT 1",
                "UPDATE applications SET first_party = 0 WHERE template_id IS NOT NULL",
                // The hosted pages' theme, as JSON; NULL: the default look.
                "ALTER TABLE projects ADD COLUMN theme TEXT",
                "ALTER TABLE authorization_codes ADD COLUMN nonce TEXT",
                "ALTER TABLE authorization_codes ADD COLUMN redirect_uri TEXT",
                // The browser session a session was opened through, if any.
                "ALTER TABLE sessions ADD COLUMN browser_session_id TEXT",
                """
                CREATE TABLE browser_sessions (
                    id TEXT PRIMARY KEY,
                    token_hash TEXT NOT NULL UNIQUE,
                    project_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    application_id TEXT NOT NULL,
                    amr TEXT NOT NULL,
                    auth_time BIGINT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX browser_sessions_user ON browser_sessions (user_id)",
                "CREATE INDEX sessions_browser_session ON sessions (browser_session_id)",
                """
                CREATE TABLE browser_flows (
                    id TEXT PRIMARY KEY,
                    token_hash TEXT NOT NULL UNIQUE,
                    application_id TEXT NOT NULL,
                    state TEXT NOT NULL,
                    csrf_token TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE consents (
                    user_id TEXT NOT NULL,
                    application_id TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    granted_at BIGINT NOT NULL,
                    PRIMARY KEY (user_id, application_id)
                )
                """,
                """
                CREATE TABLE pushed_authorization_requests (
                    uri_hash TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL,
                    request TEXT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    used_at BIGINT
                )
                """,
            ]),
        Migration(
            version: 19, name: "registration tokens administered: IDs, use counts",
            statements: [
                // A token's ID names it in listings and revocations; the token itself is never
                // shown again. Tokens issued before take an ID from their hash.
                "ALTER TABLE registration_tokens ADD COLUMN id TEXT",
                "UPDATE registration_tokens SET id = 'rit_' || substr(token_hash, 1, 24) WHERE id IS NULL",
                "CREATE UNIQUE INDEX registration_tokens_id ON registration_tokens (id)",
                // How many clients the token registered, and when it last did.
                "ALTER TABLE registration_tokens ADD COLUMN registered_clients BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE registration_tokens ADD COLUMN last_used_at BIGINT",
            ]),
        Migration(
            version: 20, name: "PowerAuth: application credentials, activations, recovery codes, temporary keys",
            statements: [
                // Per application, created on first use. The application secret and the master
                // private key are sealed (SecretBox); the public key is the X9.62 point in Base64.
                """
                CREATE TABLE powerauth_applications (
                    application_id TEXT PRIMARY KEY,
                    application_key TEXT NOT NULL UNIQUE,
                    application_secret TEXT NOT NULL,
                    master_public_key TEXT NOT NULL,
                    master_private_key TEXT NOT NULL,
                    max_failed_attempts BIGINT NOT NULL,
                    recovery_enabled BIGINT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                // One device's activation. The activation code is kept as its keyed hash
                // (`code_lookup`, cleared once the code is used), an OTP likewise; the server's
                // private key is sealed; `ctr_data` is the hash-based counter's next expected
                // value (Base64), `counter` how many steps it moved.
                """
                CREATE TABLE powerauth_activations (
                    id TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    status TEXT NOT NULL,
                    code_lookup TEXT UNIQUE,
                    code_expires_at BIGINT,
                    otp_hash TEXT,
                    otp_attempts BIGINT NOT NULL DEFAULT 0,
                    commit_mode TEXT NOT NULL,
                    device_public_key TEXT,
                    server_public_key TEXT,
                    server_private_key TEXT,
                    ctr_data TEXT,
                    counter BIGINT NOT NULL DEFAULT 0,
                    failed_attempts BIGINT NOT NULL DEFAULT 0,
                    max_failed_attempts BIGINT NOT NULL,
                    name TEXT,
                    platform TEXT,
                    device_info TEXT,
                    extras TEXT,
                    fingerprint TEXT,
                    blocked_reason TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    removed_at BIGINT
                )
                """,
                "CREATE INDEX powerauth_activations_user ON powerauth_activations (user_id)",
                "CREATE INDEX powerauth_activations_application ON powerauth_activations (application_id)",
                // A recovery code and its PUK, both as keyed hashes.
                """
                CREATE TABLE powerauth_recovery_codes (
                    id TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    activation_id TEXT NOT NULL,
                    code_lookup TEXT NOT NULL UNIQUE,
                    puk_hash TEXT NOT NULL,
                    failed_attempts BIGINT NOT NULL DEFAULT 0,
                    status TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX powerauth_recovery_codes_activation ON powerauth_recovery_codes (activation_id)",
                // Temporary ECIES keys (protocol 3.3), minutes long; the private key is sealed.
                """
                CREATE TABLE powerauth_temporary_keys (
                    id TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL,
                    activation_id TEXT,
                    public_key TEXT NOT NULL,
                    private_key TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX powerauth_temporary_keys_expiry ON powerauth_temporary_keys (expires_at)",
            ]),
        Migration(
            version: 21, name: "PowerAuth: tokens, replay records, recovery postcards and their PUKs",
            statements: [
                // MAC tokens (`/pa/v3/token/create`): the secret is sealed (SecretBox); `factors`
                // are those of the signature that created the token; `sequence` orders an
                // activation's tokens by creation (the oldest goes beyond the limit).
                """
                CREATE TABLE powerauth_tokens (
                    id TEXT PRIMARY KEY,
                    activation_id TEXT NOT NULL,
                    sequence BIGINT NOT NULL,
                    secret TEXT NOT NULL,
                    factors TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT
                )
                """,
                "CREATE INDEX powerauth_tokens_activation ON powerauth_tokens (activation_id)",
                // Single-use values already seen, by keyed hash: ECIES envelopes whose key was
                // handed out, token nonces. Kept until they could no longer be accepted anyway.
                """
                CREATE TABLE powerauth_replays (
                    replay_hash TEXT PRIMARY KEY,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX powerauth_replays_expires_at ON powerauth_replays (expires_at)",
                // Recovery codes: bound to an activation or printed on a postcard (no activation),
                // CREATED (a postcard not yet confirmed), ACTIVE, BLOCKED or REVOKED; the
                // activation a code recovered last. The table is rebuilt for the nullable column.
                """
                CREATE TABLE powerauth_recovery_codes_next (
                    id TEXT PRIMARY KEY,
                    application_id TEXT NOT NULL,
                    user_id TEXT NOT NULL,
                    activation_id TEXT,
                    code_lookup TEXT NOT NULL UNIQUE,
                    status TEXT NOT NULL,
                    failed_attempts BIGINT NOT NULL DEFAULT 0,
                    max_failed_attempts BIGINT NOT NULL DEFAULT 5,
                    recovered_activation_id TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL
                )
                """,
                """
                INSERT INTO powerauth_recovery_codes_next (id, application_id, user_id, activation_id, code_lookup, status,
                    failed_attempts, max_failed_attempts, recovered_activation_id, created_at, updated_at)
                SELECT id, application_id, user_id, activation_id, code_lookup,
                    CASE status WHEN 'USED' THEN 'REVOKED' ELSE status END, failed_attempts, 5, NULL, created_at, updated_at
                FROM powerauth_recovery_codes
                """,
                // A code's PUKs, used in order (1-based); each a keyed hash.
                """
                CREATE TABLE powerauth_recovery_puks (
                    recovery_code_id TEXT NOT NULL,
                    puk_index BIGINT NOT NULL,
                    puk_hash TEXT NOT NULL,
                    status TEXT NOT NULL,
                    PRIMARY KEY (recovery_code_id, puk_index)
                )
                """,
                """
                INSERT INTO powerauth_recovery_puks (recovery_code_id, puk_index, puk_hash, status)
                SELECT id, 1, puk_hash, CASE status WHEN 'USED' THEN 'USED' ELSE 'VALID' END FROM powerauth_recovery_codes
                """,
                "DROP TABLE powerauth_recovery_codes",
                "ALTER TABLE powerauth_recovery_codes_next RENAME TO powerauth_recovery_codes",
                "CREATE INDEX powerauth_recovery_codes_activation ON powerauth_recovery_codes (activation_id)",
                "CREATE INDEX powerauth_recovery_codes_user ON powerauth_recovery_codes (user_id)",
            ]),
        Migration(
            version: 22, name: "federation: upstream OpenID Connect providers, their identities and states",
            statements: [
                // A project's upstream providers; the client secret (or Apple's signing key) sealed.
                """
                CREATE TABLE identity_providers (
                    project_id TEXT NOT NULL REFERENCES projects(id),
                    id TEXT NOT NULL,
                    preset TEXT NOT NULL,
                    issuer TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    sealed_client_secret TEXT,
                    sealed_apple_key TEXT,
                    scopes TEXT NOT NULL,
                    claims TEXT NOT NULL,
                    label TEXT NOT NULL,
                    icon_url TEXT,
                    created_at BIGINT NOT NULL,
                    updated_at BIGINT NOT NULL,
                    PRIMARY KEY (project_id, id)
                )
                """,
                // Upstream identities, keyed by (issuer, subject) — never by email.
                """
                CREATE TABLE federated_identities (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    project_id TEXT NOT NULL,
                    provider_id TEXT NOT NULL,
                    issuer TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    email TEXT,
                    email_verified BIGINT NOT NULL DEFAULT 0,
                    name TEXT,
                    picture TEXT,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT NOT NULL,
                    UNIQUE (project_id, issuer, subject)
                )
                """,
                "CREATE INDEX federated_identities_user ON federated_identities (user_id)",
                // One authorization request to a provider: its state (hashed), bound to the flow;
                // the nonce and the PKCE verifier sealed; single use; the result kept for
                // idempotent second deliveries.
                """
                CREATE TABLE federation_states (
                    state_hash TEXT PRIMARY KEY,
                    flow_id TEXT NOT NULL,
                    provider_id TEXT NOT NULL,
                    sealed_nonce TEXT NOT NULL,
                    sealed_verifier TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    consumed_at BIGINT,
                    outcome TEXT
                )
                """,
                "CREATE INDEX federation_states_flow ON federation_states (flow_id)",
            ]),
        Migration(
            version: 23, name: "sign-in links",
            statements: [
                // A link sent beside a code: its 256-bit token only as a keyed hash, bound to its
                // flow; pending, approved or denied on another device, or used. It expires with
                // the code, and a new code replaces the flow's link.
                """
                CREATE TABLE sign_in_links (
                    token_hash TEXT PRIMARY KEY,
                    flow_id TEXT NOT NULL,
                    application_id TEXT NOT NULL,
                    location TEXT,
                    user_agent TEXT,
                    state TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    decided_at BIGINT
                )
                """,
                "CREATE INDEX sign_in_links_flow ON sign_in_links (flow_id)",
                "CREATE INDEX sign_in_links_expiry ON sign_in_links (expires_at)",
            ]),
        Migration(
            version: 24, name: "guests: anonymous users and the application that made each",
            statements: [
                // A guest has no identifier (its `email` column holds `#` and its ID, as a user
                // known by phone only does) until a sign-up upgrades it; the sweep deletes the
                // guests of an application older than its policy's `guests.maxAge`.
                "ALTER TABLE users ADD COLUMN is_anonymous BIGINT NOT NULL DEFAULT 0",
                "ALTER TABLE users ADD COLUMN guest_application_id TEXT",
                "CREATE INDEX users_guests ON users (is_anonymous, guest_application_id, created_at)",
            ]),
        Migration(
            version: 25, name: "passkeys",
            statements: [
                // A user's WebAuthn credentials: the credential ID (base64url) unique in its
                // project, the COSE public key, the sign counter and backup flags the last
                // signature reported, how its attestation was judged, and when a counter went
                // backwards (a cloned authenticator, refused and flagged).
                """
                CREATE TABLE passkey_credentials (
                    id TEXT PRIMARY KEY,
                    user_id TEXT NOT NULL REFERENCES users(id),
                    project_id TEXT NOT NULL,
                    credential_id TEXT NOT NULL,
                    user_handle TEXT NOT NULL,
                    public_key TEXT NOT NULL,
                    algorithm BIGINT NOT NULL,
                    sign_count BIGINT NOT NULL,
                    backup_eligible BIGINT NOT NULL,
                    backed_up BIGINT NOT NULL,
                    user_verified BIGINT NOT NULL,
                    transports TEXT NOT NULL,
                    aaguid TEXT NOT NULL,
                    attestation_format TEXT NOT NULL,
                    attestation_trust TEXT NOT NULL,
                    name TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    last_used_at BIGINT,
                    counter_regressed_at BIGINT,
                    UNIQUE (project_id, credential_id)
                )
                """,
                "CREATE INDEX passkey_credentials_user ON passkey_credentials (user_id)",
            ]),
        Migration(
            version: 26, name: "backend roles granted to applications",
            statements: [
                // The roles an administrator granted (`powerauth`, `introspection`), by name,
                // separated by spaces. Confidential applications the administrators made could
                // use both before roles existed: they keep them, so an upgrade cuts no backend
                // off. Dynamically registered clients (`first_party` 0) get none.
                "ALTER TABLE applications ADD COLUMN backend_roles TEXT NOT NULL DEFAULT ''",
                """
                UPDATE applications SET backend_roles = 'introspection powerauth'
                WHERE client_type = 'confidential' AND first_party = 1
                """,
            ]),
        Migration(
            version: 27, name: "linked identities held until the address's owner keeps them",
            statements: [
                // Set when the account's address is proved for the first time after the identity
                // was linked: it signs in again only once the owner keeps it.
                "ALTER TABLE federated_identities ADD COLUMN held_since BIGINT",
            ]),
        Migration(
            version: 28, name: "per-application PKCE requirement",
            statements: [
                // 1: PKCE, or for a confidential client a nonce instead (RFC 9700 §2.1.1); 0: a
                // confidential client may send neither. Public clients always need PKCE.
                "ALTER TABLE applications ADD COLUMN require_pkce BIGINT NOT NULL DEFAULT 1",
            ]),
        Migration(
            version: 29, name: "the logo and pages of a registered client",
            statements: [
                // JSON of `logo_uri`, `client_uri`, `policy_uri` and `tos_uri`, as registered
                // (OpenID Connect Dynamic Client Registration 1.0 §2); NULL when none was.
                "ALTER TABLE applications ADD COLUMN client_links TEXT",
            ]),
    ]

    /// Applies every migration (up to `through`) the database has not seen yet, each in its own
    /// transaction. Returns the versions applied. A database that holds a migration this server
    /// does not know — migrated by a newer Keyway — is refused (``newerSchema(_:)``) before
    /// anything is applied, unless `allowNewer`.
    @discardableResult
    static func apply(to database: any Database, now: Date, through last: Int = .max, allowNewer: Bool = false)
        async throws -> [Int]
    {
        // Instances starting together on one database migrate once: one at a time holds the
        // lock, and the others then find every version applied.
        try await database.exclusively(.migrations) {
            try await QueryDeadline.$suspended.withValue(true) {
                let current = try await status(of: database)
                if !current.unknown.isEmpty, !allowNewer { throw newerSchema(current) }
                return try await applyUnlocked(to: database, now: now, through: last)
            }
        }
    }

    /// What the database holds of the schema, against the migrations this server knows.
    static func status(of database: any Database) async throws -> SchemaStatus {
        // On the writer, as the migrations themselves: what they just wrote is what it reads.
        let versions = try await database.write { repositories in
            try await createTable(repositories)
            return try await repositories.sql.raw("SELECT version FROM keyway_migrations ORDER BY version").all()
                .map { Int(try $0.decode(column: "version", as: Int64.self)) }
        }
        let known = Set(all.map(\.version))
        return SchemaStatus(
            latestKnown: all.map(\.version).max() ?? 0, applied: versions.filter(known.contains),
            pending: all.map(\.version).filter { !versions.contains($0) }, unknown: versions.filter { !known.contains($0) })
    }

    /// Refuses to start on a database that is not migrated, for a server started without
    /// migrating (``ServerConfiguration/migrateOnStart``): pending migrations, or (unless
    /// `allowNewer`) unknown ones.
    static func requireCurrent(_ database: any Database, allowNewer: Bool) async throws {
        let current = try await status(of: database)
        if !current.unknown.isEmpty, !allowNewer { throw newerSchema(current) }
        guard current.pending.isEmpty else {
            throw ConfigurationError(
                "The database needs migration\(current.pending.count == 1 ? "" : "s") \(current.pending.map(String.init).joined(separator: ", ")): run keyway-server migrate first (this server was started with --no-migrate).")
        }
    }

    /// The refusal of a database migrated by a newer Keyway.
    static func newerSchema(_ status: SchemaStatus) -> ConfigurationError {
        let versions = status.unknown.map(String.init).joined(separator: ", ")
        return ConfigurationError(
            "The database was migrated by a newer Keyway: it holds migration\(status.unknown.count == 1 ? "" : "s") \(versions), which this server (migrations 1 to \(status.latestKnown)) does not know. Run the newer version, or restore the backup taken before the upgrade; --allow-newer-schema starts anyway, when the newer version's release notes say its schema works with this one.")
    }

    private static func createTable(_ repositories: Repositories) async throws {
        try await repositories.sql.raw(
            """
            CREATE TABLE IF NOT EXISTS keyway_migrations (
                version BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """
        ).run()
    }

    private static func applyUnlocked(to database: any Database, now: Date, through last: Int) async throws -> [Int] {
        var applied: [Int] = []
        for migration in all where migration.version <= last {
            let didApply = try await database.write { repositories -> Bool in
                let sql = repositories.sql
                let existing = try await sql.raw(
                    "SELECT version FROM keyway_migrations WHERE version = \(bind: Int64(migration.version))"
                ).first()
                guard existing == nil else { return false }
                for statement in migration.statements {
                    try await sql.raw(SQLQueryString(statement)).run()
                }
                try await sql.raw(
                    """
                    INSERT INTO keyway_migrations (version, name, applied_at)
                    VALUES (\(bind: Int64(migration.version)), \(bind: migration.name), \(bind: now.epochMilliseconds))
                    """
                ).run()
                return true
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }
}

/// The schema a database holds, against the migrations this server knows
/// (`keyway-server migrate status`).
package struct SchemaStatus: Codable, Sendable, Equatable {
    /// The newest migration this server knows.
    package var latestKnown: Int
    /// The migrations the database has seen that this server knows.
    package var applied: [Int]
    /// The migrations this server knows that the database has not seen.
    package var pending: [Int]
    /// The migrations the database has seen that this server does not know: a newer Keyway's.
    package var unknown: [Int]
}
