import X509
import Foundation

/// Everything `keyway-server` needs to start.
public struct ServerConfiguration: Sendable {
    /// Address to listen on.
    public var host: String
    /// Port to listen on; `0` picks a free port.
    public var port: Int
    /// Where the data lives.
    public var database: DatabaseLocation
    /// The OAuth issuer URL; `nil` uses the listening URL (`http://HOST:PORT`).
    public var issuer: String?
    /// The host the listening URL names when ``issuer`` is `nil` (`localhost` for
    /// `http://localhost:PORT`, a domain name passkeys can be bound to); `nil` names ``host``.
    public var issuerHost: String?
    /// Dev mode: a dev project and application are provisioned, and messages go to the dev outbox.
    public var devMode: Bool
    /// Pins the config ID of the dev application.
    public var devConfigId: String?
    /// Outside dev mode: the executable that delivers each message (JSON on standard input).
    public var deliveryCommand: String?
    /// The SMTP relay email goes through when its project has no email webhook, in dev mode
    /// too (instead of the dev outbox or the delivery command).
    public var smtp: SMTPRelayConfiguration?
    /// The time source.
    public var clock: any ServerClock
    /// Lifetimes and limits of flows and codes.
    public var limits: FlowLimits
    /// Lifetimes of issued tokens.
    public var tokenLifetimes: TokenLifetimes
    /// The admin API's bearer token (at least 32 characters). `nil` keeps the stored one, or
    /// creates a random one on first start (``KeywayServerApp/createdAdminToken``).
    public var adminToken: String?
    /// Where `GET /metrics` is served and to whom: by default nowhere (``MetricsExposure``).
    public var metrics = MetricsExposure()
    /// How passwords are hashed and checked.
    public var passwordHashing: ScryptPasswords = ScryptPasswords()
    /// How long a connection may stay idle — no request, or a request whose head has not arrived
    /// in full — before the server closes it. A response in progress (a long poll) is never cut.
    public var idleTimeout: TimeInterval = 60
    /// Replaces ``passwordHashing`` (tests observe or hold the hashing with it).
    package var customPasswordHashing: (any PasswordHashing)?
    /// The method modules flows use: the server's own, or those plus a test's or an embedding
    /// app's (``MethodRegistry/adding(_:)``).
    var methods = MethodRegistry.standard

    /// The App Attest roots credential certificates must chain to, PEM. Empty (the default):
    /// Apple's App Attestation Root CA, which the server carries.
    public var appAttestRoots: [String] = []
    /// Connections a PostgreSQL database is used through, at most (1…1000, default 10).
    public var databasePoolSize = 10
    /// How long a request waits for a PostgreSQL connection of the pool before it is answered
    /// `503` with `Retry-After` (every connection busy, or the database unreachable). Default 1.5 s, so that during an outage the answer comes within 2 s.
    public var databaseLeaseTimeout: Duration = .milliseconds(1_500)
    /// How long one PostgreSQL statement may run, and a transaction idle between two, before
    /// PostgreSQL cancels it (`statement_timeout`) or ends the session
    /// (`idle_in_transaction_session_timeout`), rolling back, and the request is answered `503`
    /// with `Retry-After`. Migrations have none. Default 10 s.
    public var databaseQueryTimeout: Duration = .seconds(10)
    /// How often the maintenance sweep deletes what has expired (`--sweep-interval-seconds`).
    public var sweepInterval: Duration = .seconds(60)
    /// Whether start-up applies the migrations the database has not seen (`true`); `false` starts
    /// only on a database already migrated (`keyway-server migrate`), as deployments that migrate
    /// in a separate step do.
    public var migrateOnStart = true
    /// The proxies whose `Forwarded` and `X-Forwarded-For` headers name the client
    /// (`--trusted-proxies`); none by default, so a client cannot choose its address.
    public var trustedProxies = TrustedProxies.none
    /// Whether the server starts on a database migrated by a newer Keyway (migrations it does not
    /// know): only when the newer version's notes say its schema is compatible with this one.
    public var allowNewerSchema = false
    /// The key the secrets kept at rest are sealed with. `nil`: in dev mode a key file beside
    /// the SQLite file (or `.keyway/master.key` for PostgreSQL), created on first start; outside
    /// dev mode the server does not start without one.
    public var masterKey: MasterKey?
    /// The RSA private key (DER, PKCS#1 or PKCS#8, 2048 bits or more) stored as the first
    /// `RS256` signing key when the database has none, instead of a new one — for an embedder that
    /// starts many servers (a test harness) and would otherwise search for primes at each start.
    /// `nil` (the default): a new 2048-bit key. Later keys (rotation) are always new.
    public var firstRS256Key: Data?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, database: DatabaseLocation = .embeddedDefault,
        issuer: String? = nil, devMode: Bool = true, devConfigId: String? = nil, deliveryCommand: String? = nil,
        clock: any ServerClock = SystemClock(), limits: FlowLimits = FlowLimits(),
        tokenLifetimes: TokenLifetimes = TokenLifetimes(), adminToken: String? = nil
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.issuer = issuer
        self.devMode = devMode
        self.devConfigId = devConfigId
        self.deliveryCommand = deliveryCommand
        self.clock = clock
        self.limits = limits
        self.tokenLifetimes = tokenLifetimes
        self.adminToken = adminToken
    }
}

/// Lifetimes and limits of flows and one-time codes.
public struct FlowLimits: Sendable {
    /// How long a flow lives from its start.
    public var flowLifetime: TimeInterval = 15 * 60
    /// How long a one-time code stays valid.
    public var codeLifetime: TimeInterval = 10 * 60
    /// Digits in a one-time code.
    public var codeLength: Int = 6
    /// Wrong codes accepted before the flow closes.
    public var maxCodeAttempts: Int = 5
    /// Minimum time between two codes of one flow.
    public var resendCooldown: TimeInterval = 30
    /// New codes one flow may request.
    public var maxResends: Int = 5
    /// How long an authorization code can be redeemed.
    public var authorizationCodeLifetime: TimeInterval = 60
    /// How long a browser stays signed in at the hosted pages after signing in (single sign-on).
    public var browserSessionLifetime: TimeInterval = 8 * 3600
    /// How long a request that sends a code waits for it to be delivered, while the delivery
    /// worker retries a failed attempt with backoff, before the flow goes back (real time).
    public var deliveryPatience: Duration = .seconds(8)
    /// Limits across flows, per identifier and per client address.
    public var rateLimits = RateLimits()
    /// Password checks and hashes in progress or waiting at once; past it a request is answered
    /// `503` with the `wait` action at once instead of queueing.
    public var maxConcurrentPasswordChecks = 16
    /// Of those, how many one client network may have at once.
    public var maxConcurrentPasswordChecksPerNetwork = 2

    public init() {}
}

/// Limits that hold across flows, counted in fixed windows in the database (so they hold across
/// restarts and server instances). Identifiers are counted in their normalized form, so one
/// address spelled two ways counts once. `0` turns a limit off.
public struct RateLimits: Sendable, Equatable {
    /// The counting window.
    public var window: TimeInterval = 15 * 60
    /// Flows started for one identifier per window.
    public var flowStartsPerIdentifier = 10
    /// Codes sent to one identifier per window (first codes and resends).
    public var codeSendsPerIdentifier = 10
    /// Codes checked for one identifier per window, over all its flows: restarting a flow does
    /// not buy more guesses.
    public var codeChecksPerIdentifier = 15
    /// Passwords checked for one identifier per window, counted apart from codes: guessing codes
    /// does not lock out the password, nor the reverse.
    public var passwordChecksPerIdentifier = 10
    /// Flows started from one client address per window. Behind a proxy every client has the
    /// proxy's address: raise or turn it off there.
    public var flowStartsPerAddress = 300
    /// Codes (email, SMS) sent for flows of one client address per window.
    public var codeSendsPerAddress = 300
    /// Codes (email, SMS, authenticator) and passwords checked for one client address per window,
    /// whatever the identifiers: one address cannot guess across many accounts.
    public var checksPerAddress = 900
    /// The per-identifier limits above hold per identifier *and client network*: they throttle
    /// whoever sends the attempts, not the identifier's owner. Counted over every client together,
    /// an identifier may have this many times more per window; past that it is slowed to one
    /// attempt per ``slowedInterval`` — never blocked for the whole window — and clients from a
    /// network the account signed in from before are not slowed at all.
    public var identifierCeilingFactor = 3
    /// The spacing of attempts for an identifier past its ceiling.
    public var slowedInterval: TimeInterval = 60
    /// Failed PowerAuth signatures of one activation that count per window from one client
    /// network, on the device API (`/pa/v3`, device approvals). Past it the request is answered
    /// `429` with `Retry-After` and the failure is not counted: knowing an activation ID is not
    /// enough to spend its failure budget (and block it) at will. A correct signature is always
    /// accepted. `0` turns it off.
    public var powerAuthFailuresPerActivation = 3
    /// Failed PowerAuth signatures that count per window from one client network over all
    /// activations, on the same terms. `0` turns it off.
    public var powerAuthFailuresPerAddress = 30
    /// PowerAuth temporary keys (`POST /pa/v3/keystore/create`) made per window for one client
    /// network. Their request is signed with the application secret every copy of the app holds,
    /// so this bounds what a stranger can make the server keep; a device asks for one per scope
    /// every few minutes. Past it: `429 ERR_TEMPORARY_KEY` with `Retry-After`. `0` turns it off.
    public var powerAuthTemporaryKeysPerAddress = 600

    public init() {}

    /// Refuses negative limits and windows that are not positive.
    public func validate() throws {
        guard window > 0, flowStartsPerIdentifier >= 0, codeSendsPerIdentifier >= 0, codeChecksPerIdentifier >= 0,
            passwordChecksPerIdentifier >= 0,
            flowStartsPerAddress >= 0, codeSendsPerAddress >= 0, checksPerAddress >= 0, identifierCeilingFactor >= 1,
            slowedInterval > 0, powerAuthFailuresPerActivation >= 0, powerAuthFailuresPerAddress >= 0,
            powerAuthTemporaryKeysPerAddress >= 0
        else {
            throw ConfigurationError(
                "Rate limits must not be negative, the ceiling factor at least 1, and the window and slowed interval positive.")
        }
    }
}

/// Lifetimes of issued tokens.
public struct TokenLifetimes: Sendable {
    /// Access token lifetime.
    public var accessToken: TimeInterval = 15 * 60
    /// ID token lifetime.
    public var idToken: TimeInterval = 60 * 60
    /// The refresh token policy of applications that do not set their own.
    public var refreshTokens = RefreshTokenPolicy()

    public init() {}
}

extension ServerConfiguration {
    /// The App Attest roots: ``appAttestRoots`` parsed, or Apple's root.
    func appAttestRootCertificates() throws -> [Certificate] {
        guard !appAttestRoots.isEmpty else { return [try AppleAppAttestRoot.certificate()] }
        return try appAttestRoots.enumerated().map { index, pem in
            do { return try Certificate(pemEncoded: pem) } catch {
                throw ConfigurationError("App Attest root \(index + 1) is not a PEM certificate.")
            }
        }
    }
}

extension ServerConfiguration {
    /// Where dev mode keeps its master key when none is given.
    var devMasterKeyPath: String {
        switch database {
        case .sqlite(let path): MasterKey.devPath(besideSQLite: path)
        case .postgres: ".keyway/master.key"
        }
    }

    /// The master key: the configured one, or in dev mode the dev key file's.
    ///
    /// - Throws: ``ConfigurationError`` outside dev mode without a key.
    /// Refuses settings the server cannot start with, in the words start-up would use: the checks
    /// that need no database. `keyway-server config check` runs them too, so it approves exactly
    /// what `serve` accepts.
    public func validate() throws(ConfigurationError) {
        if let adminToken {
            guard adminToken.count >= AdminCredential.minimumLength, !adminToken.contains(where: \.isWhitespace) else {
                throw ConfigurationError(
                    "The admin token must have at least \(AdminCredential.minimumLength) characters and no spaces.")
            }
        }
        try smtp?.validate()
        if let problem = metrics.problem { throw ConfigurationError(problem) }
        guard !devMode else { return }
        if masterKey == nil {
            throw ConfigurationError(Self.missingMasterKey)
        }
        guard deliveryCommand != nil || smtp != nil else {
            throw ConfigurationError(
                "Outside dev mode one-time codes need a delivery channel: pass --delivery-command PATH (an executable that receives each message as JSON on standard input), or --smtp-url for email."
            )
        }
        if let command = deliveryCommand, !FileManager.default.isExecutableFile(atPath: command) {
            throw ConfigurationError("The delivery command \(command) is not an executable file.")
        }
    }

    static let missingMasterKey =
        "The server keeps its signing and secret keys sealed under a master key, and production mode needs one: set KEYWAY_MASTER_KEY or --master-key-file to 32 random bytes in base64 (openssl rand -base64 32), and keep it apart from the database."

    func resolvedMasterKey() throws -> MasterKey {
        if let masterKey { return masterKey }
        guard devMode else {
            throw ConfigurationError(Self.missingMasterKey)
        }
        return try MasterKey.readOrCreate(path: devMasterKeyPath)
    }
}
