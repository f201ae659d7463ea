import ArgumentParser
import Foundation
import KeywayProtocol
import KeywayServer
import Logging

/// The options of `keyway-server serve`, shared with `keyway-server config check`. Each setting
/// comes from its option when given, else from its environment variable, else from the
/// configuration file (`--config`), else from its default: see ``ServeSettings``.
struct ServeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A JSON file of settings (default: $KEYWAY_CONFIG); options and environment variables override it.",
            valueName: "path"))
    var config: String?

    @Option(help: "The address to listen on (default 127.0.0.1).")
    var host: String?

    @Option(help: "The port to listen on (default 8080; 0 picks a free port).")
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "The database URL: sqlite:PATH or postgres://USER:PASSWORD@HOST:PORT/DATABASE[?sslmode=disable|prefer|require] (default: $KEYWAY_DATABASE_URL, else sqlite:.keyway/keyway.sqlite).",
            valueName: "url"))
    var database: String?

    @Option(help: "Connections to a PostgreSQL database, at most (1-1000, default 10).")
    var databasePoolSize: Int?

    @Option(
        name: .customLong("database-lease-timeout-ms"),
        help: "PostgreSQL: milliseconds a request waits for a connection before it is answered 503 (100-600000, default 1500).")
    var databaseLeaseTimeoutMs: Int?

    @Option(
        name: .customLong("database-query-timeout-ms"),
        help: "PostgreSQL: milliseconds one statement may run, or a transaction idle between two, before the database cancels it and the request is answered 503 (100-600000, default 10000).")
    var databaseQueryTimeoutMs: Int?

    @Option(
        name: .customLong("sweep-interval-seconds"),
        help: "Seconds between two runs of the maintenance sweep, which deletes what has expired (1-86400, default 60).")
    var sweepIntervalSeconds: Int?

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the master key (32 bytes, base64) the signing and secret keys are sealed with at rest (default: $KEYWAY_MASTER_KEY; in dev mode a key file beside the SQLite database, created on first start). Production mode needs one.",
            valueName: "path"))
    var masterKeyFile: String?

    @Option(help: "The OAuth issuer URL (default: the listening URL).")
    var issuer: String?

    @Flag(help: "Turn dev mode off: no dev application, no dev outbox.")
    var production = false

    @Flag(
        name: .customLong("no-migrate"),
        help: "Do not migrate the database at start: refuse to start unless `keyway-server migrate` has brought it up to date (for deployments that migrate in a step of their own).")
    var noMigrate = false

    @Flag(help: "Start on a database a newer Keyway already migrated (only when its release notes say its schema works with this version).")
    var allowNewerSchema = false

    @Option(
        name: .customLong("trusted-proxies"),
        help: ArgumentHelp(
            "The proxies in front of the server whose Forwarded and X-Forwarded-For headers name the client, comma-separated addresses or CIDR ranges (10.0.0.0/8,2001:db8::/32); only theirs are believed (default: $KEYWAY_TRUSTED_PROXIES; none).",
            valueName: "list"))
    var trustedProxies: String?

    @Option(
        name: .customLong("metrics-listen"),
        help: ArgumentHelp(
            "Serve GET /metrics on a listener of its own, HOST:PORT (PORT 0 picks one; default: $KEYWAY_METRICS_LISTEN; none). Put it where only the scraper reaches.",
            valueName: "host:port"))
    var metricsListen: String?

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the metrics token, which reads /metrics and nothing else (default: $KEYWAY_METRICS_TOKEN; on the metrics listener, none means no token needed).",
            valueName: "path"))
    var metricsTokenFile: String?

    @Flag(help: "Serve GET /metrics on the public listener too, to the metrics token or the admin token (default: not served there).")
    var metricsOnPublicListener = false

    @Option(help: "Pin the config ID of the dev application (for scripts and tests).")
    var devConfigId: String?

    @Option(help: "Outside dev mode: an executable that delivers each message, given as JSON on standard input.")
    var deliveryCommand: String?

    @Option(
        help: ArgumentHelp(
            "Send email through this SMTP relay when a project has no email webhook, in dev mode too: smtp://[USER[:PASSWORD]@]HOST[:PORT] or smtps://… (prefer --smtp-password-file or $KEYWAY_SMTP_PASSWORD for the password).",
            valueName: "url"))
    var smtpUrl: String?

    @Option(
        help: ArgumentHelp(
            "How the SMTP connection is secured: starttls (default for smtp://, port 587), tls (implicit, default for smtps://, port 465) or none (loopback relays only, unless --smtp-allow-plaintext).",
            valueName: "mode"))
    var smtpTls: String?

    @Option(help: ArgumentHelp("The sender of email sent through the SMTP relay when the project's policy names none: ADDRESS or 'Name <ADDRESS>'.", valueName: "sender"))
    var smtpFrom: String?

    @Option(help: ArgumentHelp("A PEM file of the certificates the SMTP relay's certificate must chain to (default: the system's trust store).", valueName: "path"))
    var smtpCaFile: String?

    @Option(help: ArgumentHelp("A file whose first line is the SMTP password (overrides $KEYWAY_SMTP_PASSWORD and the URL's).", valueName: "path"))
    var smtpPasswordFile: String?

    @Option(help: "Seconds connecting to the SMTP relay, and then each of its replies, may take (1-60, default 15).")
    var smtpTimeout: Int?

    @Option(help: ArgumentHelp("The name the server greets the SMTP relay with, EHLO NAME (default: this machine's host name when it is dotted, else localhost).", valueName: "name"))
    var smtpHeloName: String?

    @Flag(help: "Let --smtp-tls none send email unencrypted to a relay that is not on loopback (never with credentials).")
    var smtpAllowPlaintext = false

    @Option(
        name: .customLong("trust-issuer"),
        help: ArgumentHelp(
            "A JSON file describing an external issuer whose tokens may be exchanged for Keyway tokens (repeatable).",
            discussion: #"{"issuer": "…", "audience": "…", "jwks": {"keys": […]} or "jwksURL": "https://…", "linkByVerifiedEmail": true, "createUsers": true}"#,
            valueName: "path"))
    var trustedIssuerFiles: [String] = []

    @Option(help: "Flows one client address may start in 15 minutes (0: no limit; behind a proxy every client shares its address).")
    var maxFlowStartsPerAddress: Int?

    @Option(help: "Codes (email, SMS) one client address may have sent in 15 minutes (0: no limit).")
    var maxCodeSendsPerAddress: Int?

    @Option(help: "Codes and passwords one client address may have checked in 15 minutes (0: no limit).")
    var maxChecksPerAddress: Int?

    @Option(
        help: ArgumentHelp(
            "The admin API's bearer token, at least 32 characters (default: $KEYWAY_ADMIN_TOKEN, else the stored one, else a new one printed once). Other users see command lines in the process list: prefer $KEYWAY_ADMIN_TOKEN or --admin-token-file.",
            valueName: "token"))
    var adminToken: String?

    @Option(help: ArgumentHelp("A file whose first line is the admin API's bearer token.", valueName: "path"))
    var adminTokenFile: String?

    @Flag(
        help: ArgumentHelp(
            "Run dev mode on a host other than loopback anyway. Dev mode serves every one-time code at /dev/outbox without authentication: anyone who can reach the server can sign in as anyone."))
    var unsafeDevModeOnNetwork = false

    @Option(
        name: .customLong("app-attest-root"),
        help: ArgumentHelp(
            "A PEM file of a root App Attest credential certificates must chain to; repeat for several (default: Apple's App Attestation Root CA, built in).",
            valueName: "path"))
    var appAttestRootFiles: [String] = []

    @Option(help: "Log level: trace, debug, info (default), notice, warning, error, critical.")
    var logLevel: String?

    @Option(help: "Log lines as text (default) or as JSON objects, one per line (json).")
    var logFormat: String?

    func validate() throws {
        _ = try settings()
    }
}
