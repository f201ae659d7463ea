import Crypto
import Foundation
import Hummingbird
import KeywayProtocol
import Logging
import NIOCore
import ServiceLifecycle

/// The Keyway server as a library: open storage, apply migrations, load keys, provision dev mode,
/// then serve HTTP until shut down.
///
/// ```swift
/// let server = try await KeywayServerApp.bootstrap(configuration: .init(port: 0), logger: logger)
/// try await server.run { address in print("listening on \(address.port)") }
/// // elsewhere, to stop: `run` returns once requests in progress are answered and the
/// // database is closed.
/// await server.shutDown()
/// ```
public final class KeywayServerApp: Sendable {
    /// The server's version, as `/pa/v3/status` reports it.
    public static let version = "0.1.0"

    /// Where the server listens once running.
    public struct ListeningAddress: Sendable {
        public let host: String
        public let port: Int
        /// The issuer tokens carry.
        public let issuer: String
    }

    public let configuration: ServerConfiguration
    /// The config ID of the dev application (dev mode only).
    public let devConfigId: String?
    /// The admin token created at this start (none was configured or stored): show it once.
    public let createdAdminToken: Sensitive<String>?

    private let logger: Logger
    let database: any Database
    private let outbox: DevOutbox?
    private let keys: SigningKeyRing
    /// The key the secrets at rest are sealed with.
    let masterKey: MasterKey
    private let refreshKey: SymmetricKey
    private let dpopNonceKey: SymmetricKey
    let clientSecretKey: SymmetricKey
    private let engine: FlowEngine
    /// The server's metrics, exported at `GET /metrics`.
    let metrics: ServerMetrics
    /// Delivers the outbox (`delivery_outbox`): to a project's webhooks, email to the SMTP relay
    /// when one is configured, and the rest to the dev outbox in dev mode, through the delivery
    /// command otherwise.
    let deliveryWorker: DeliveryWorker
    private let issuer: Locked<String?>
    private let shutdownSwitch = GracefulShutdownSwitch()
    /// The requests the public listener is answering, named by a stop that waits for them.
    private let requestsInProgress: RequestsInProgress
    /// How PowerAuth keeps its secrets at rest.
    private let powerAuthSecrets: PowerAuthSecrets
    /// Checks App Attest attestations and assertions: for device enrolments (the trusted-device
    /// method's) and DPoP binding (the token endpoint's).
    private let appAttest: AppAttestService

    private init(
        configuration: ServerConfiguration, devConfigId: String?, createdAdminToken: Sensitive<String>?,
        logger: Logger, database: any Database, outbox: DevOutbox?, keys: SigningKeyRing, refreshKey: SymmetricKey,
        dpopNonceKey: SymmetricKey, clientSecretKey: SymmetricKey, engine: FlowEngine, deliveryWorker: DeliveryWorker,
        issuer: Locked<String?>, masterKey: MasterKey, metrics: ServerMetrics, powerAuthSecrets: PowerAuthSecrets,
        appAttest: AppAttestService
    ) {
        self.powerAuthSecrets = powerAuthSecrets
        self.appAttest = appAttest
        self.masterKey = masterKey
        self.metrics = metrics
        self.requestsInProgress = RequestsInProgress(metrics: metrics)
        self.configuration = configuration
        self.devConfigId = devConfigId
        self.createdAdminToken = createdAdminToken
        self.logger = logger
        self.database = database
        self.outbox = outbox
        self.keys = keys
        self.refreshKey = refreshKey
        self.dpopNonceKey = dpopNonceKey
        self.clientSecretKey = clientSecretKey
        self.engine = engine
        self.deliveryWorker = deliveryWorker
        self.issuer = issuer
    }

    /// Opens the database (creating it on first start), applies migrations, loads or creates the
    /// signing key, and in dev mode provisions the dev application.
    public static func bootstrap(configuration: ServerConfiguration, logger: Logger) async throws -> KeywayServerApp {
        try configuration.validate()
        let now = configuration.clock.now()
        let metrics = ServerMetrics()
        let database: any Database = MeteredDatabase(
            inner: try await configuration.database.open(
                poolSize: configuration.databasePoolSize, leaseTimeout: configuration.databaseLeaseTimeout,
                queryTimeout: configuration.databaseQueryTimeout,
                observer: metrics.databaseObserver, logger: logger),
            metrics: metrics)
        if configuration.database.isPostgres {
            metrics.poolSize(configuration.databasePoolSize)
        } else {
            metrics.poolSize(1)
        }
        do {
            try configuration.tokenLifetimes.refreshTokens.validate()
            try configuration.limits.rateLimits.validate()
            var applied: [Int] = []
            if configuration.migrateOnStart {
                applied = try await Migrations.apply(to: database, now: now, allowNewer: configuration.allowNewerSchema)
            } else {
                try await Migrations.requireCurrent(database, allowNewer: configuration.allowNewerSchema)
            }
            if !applied.isEmpty {
                logger.info("database migrated", metadata: ["versions": "\(applied)"])
            }
            let masterKey = try configuration.resolvedMasterKey()
            let sealedNow = try await SecretsAtRest.prepare(in: database, masterKey: masterKey)
            if sealedNow > 0 {
                logger.notice("secrets sealed under the master key", metadata: ["count": "\(sealedNow)", "masterKey": "\(masterKey.id)"])
            }
            let keys = try await SigningKeyRing.load(
                database: database, clock: configuration.clock, masterKey: masterKey, firstRS256Key: configuration.firstRS256Key)
            let codeKey = try await ServerSecretKey.loadOrCreate(named: ServerSecretKey.oneTimeCodes, in: database, now: now, masterKey: masterKey)
            let refreshKey = try await ServerSecretKey.loadOrCreate(named: ServerSecretKey.refreshTokens, in: database, now: now, masterKey: masterKey)
            let dpopNonceKey = try await ServerSecretKey.loadOrCreate(named: ServerSecretKey.dpopNonces, in: database, now: now, masterKey: masterKey)
            let clientSecretKey = try await ServerSecretKey.loadOrCreate(named: ServerSecretKey.clientSecrets, in: database, now: now, masterKey: masterKey)
            let createdAdminToken = try await AdminCredential.prepare(
                configured: configuration.adminToken, in: database, now: now)
            let smtp = try configuration.smtp.map { relay throws(ConfigurationError) in
                try relay.validate()
                return SMTPClient(configuration: relay, tls: try relay.makeTLSContext())
            }
            let outbox: DevOutbox?
            let provider: (any DeliveryProvider)?
            let devConfigId: String?
            if configuration.devMode {
                let devOutbox = DevOutbox(clock: configuration.clock, logger: logger)
                outbox = devOutbox
                provider = devOutbox
                devConfigId = try await DevProvisioning.ensureDevApplication(
                    in: database, pinnedConfigId: configuration.devConfigId, now: now)
            } else {
                guard configuration.deliveryCommand != nil || smtp != nil else {
                    throw ConfigurationError(
                        "Outside dev mode one-time codes need a delivery channel: pass --delivery-command PATH (an executable that receives each message as JSON on standard input), or --smtp-url for email."
                    )
                }
                outbox = nil
                if let command = configuration.deliveryCommand {
                    guard FileManager.default.isExecutableFile(atPath: command) else {
                        throw ConfigurationError("The delivery command \(command) is not an executable file.")
                    }
                    provider = CommandDelivery(executable: command, arguments: [])
                } else {
                    // Email goes to the relay; SMS needs a webhook in every policy that uses it.
                    provider = nil
                }
                devConfigId = nil
            }
            if let smtp {
                logger.info("email goes through the SMTP relay", metadata: ["relay": "\(smtp.configuration)"])
            }
            let sealingKey = try await ServerSecretKey.loadOrCreate(named: ServerSecretKey.sealedSecrets, in: database, now: now, masterKey: masterKey)
            let powerAuthSecrets = PowerAuthSecrets(box: SecretBox(key: sealingKey), hashKey: codeKey)
            let deliveryWorker = DeliveryWorker(
                database: database, clock: configuration.clock,
                routing: .projects(
                    database: database, clock: configuration.clock, fallback: provider, smtp: smtp, logger: logger),
                metrics: metrics, logger: logger)
            let issuerBox = Locked(configuration.issuer)
            let appAttest = AppAttestService(
                database: database, clock: configuration.clock,
                verifier: AppAttestVerifier(roots: try configuration.appAttestRootCertificates()),
                limits: configuration.limits, logger: logger)
            let fallbackIssuer = "http://\(configuration.host):\(configuration.port)"
            var methodDependencies = MethodDependencies()
            methodDependencies.passwords = configuration.customPasswordHashing ?? configuration.passwordHashing
            methodDependencies.passwordGate = PasswordGate(
                capacity: configuration.limits.maxConcurrentPasswordChecks,
                perNetwork: configuration.limits.maxConcurrentPasswordChecksPerNetwork)
            methodDependencies.appAttest = appAttest
            methodDependencies[UpstreamProviders.self] = UpstreamProviders(clock: configuration.clock, logger: logger)
            let engine = FlowEngine(
                database: database, clock: configuration.clock, limits: configuration.limits,
                hasher: OneTimeCodeHasher(key: codeKey), delivery: deliveryWorker, directory: DatabaseFlowDirectory(),
                secrets: SecretBox(key: sealingKey), logger: logger,
                issuer: { issuerBox.current ?? fallbackIssuer }, metrics: metrics,
                powerAuthSecrets: powerAuthSecrets,
                dependencies: methodDependencies,
                accessTokenLifetime: configuration.tokenLifetimes.accessToken, methods: configuration.methods)
            return KeywayServerApp(
                configuration: configuration, devConfigId: devConfigId, createdAdminToken: createdAdminToken,
                logger: logger, database: database,
                outbox: outbox, keys: keys, refreshKey: refreshKey, dpopNonceKey: dpopNonceKey,
                clientSecretKey: clientSecretKey, engine: engine, deliveryWorker: deliveryWorker,
                issuer: issuerBox, masterKey: masterKey, metrics: metrics,
                powerAuthSecrets: powerAuthSecrets, appAttest: appAttest)
        } catch {
            await Task { await database.shutdown() }.value
            throw error
        }
    }

    /// The issuer: the configured one, or the listening URL once the server is bound.
    public var currentIssuer: String {
        issuer.current ?? "http://\(configuration.host):\(configuration.port)"
    }

    /// Runs the maintenance sweep once now (expired rows, stale guests), as the background service
    /// does every minute.
    package func sweepNow() async throws {
        try await MaintenanceService(database: database, clock: configuration.clock, logger: logger).sweep()
    }

    /// Serves HTTP until ``shutDown()`` is called or the process gets SIGINT/SIGTERM, then closes
    /// the database. `onListening` runs once the socket is bound.
    ///
    /// Shutting down is graceful: the listening socket closes, idle connections close, requests in
    /// progress are answered (a long poll returns early), the background services stop, and only
    /// then is the database closed and `run` returns; what has not stopped after 15 seconds is
    /// cancelled. Cancelling the task that runs `run` still
    /// stops the server, but abruptly; prefer ``shutDown()``.
    public func run(onListening: @escaping @Sendable (ListeningAddress) async -> Void = { _ in }) async throws {
        let router = try buildRouter()
        let host = configuration.host
        let issuerHost = configuration.issuerHost ?? host
        let issuerBox = issuer
        let app = Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [ParserErrorProblemHandler()],
                    idleTimeout: .milliseconds(Int64(max(0.1, configuration.idleTimeout) * 1000)))),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "keyway"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let issuer = issuerBox.withLock { value -> String in
                    if value == nil {
                        let hostPart = issuerHost.contains(":") ? "[\(issuerHost)]" : issuerHost
                        value = "http://\(hostPart):\(port)"
                    }
                    return value!
                }
                await onListening(ListeningAddress(host: host, port: port, issuer: issuer))
            },
            logger: logger)
        // Stopped in reverse order: the notice first, then the listeners (requests in progress are
        // answered), then the background services the requests may have woken.
        var services: [any Service] = [
            LoggedService(
                name: "the maintenance sweep",
                base: MaintenanceService(
                    database: database, clock: configuration.clock, logger: logger, interval: configuration.sweepInterval),
                logger: logger),
            LoggedService(name: "the delivery worker", base: deliveryWorker, logger: logger),
            LoggedService(
                name: "the public listener", base: app, logger: logger,
                busyWith: { [requestsInProgress] in requestsInProgress.describe() }),
        ]
        if let listener = configuration.metrics.listener {
            let logger = self.logger
            services.append(
                LoggedService(name: "the metrics listener", base: Application(
                    router: metricsRouteTable().router,
                    server: .http1(configuration: .init(idleTimeout: .seconds(60))),
                    configuration: .init(address: .hostname(listener.host, port: listener.port), serverName: "keyway"),
                    onServerRunning: { channel in
                        let port = channel.localAddress?.port ?? listener.port
                        let hostPart = listener.host.contains(":") ? "[\(listener.host)]" : listener.host
                        logger.notice("metrics listening on http://\(hostPart):\(port)/metrics")
                    },
                    logger: logger), logger: logger))
        }
        services.append(ShutdownNotice(logger: logger, limit: Self.gracefulShutdownLimit))
        var groupConfiguration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // A stop always ends: what has not stopped gracefully by then (a connection that stays
        // open, a service that does not return) is cancelled.
        groupConfiguration.maximumGracefulShutdownDuration = Self.gracefulShutdownLimit
        let group = ServiceGroup(configuration: groupConfiguration)
        await shutdownSwitch.attach(group)
        let database = self.database
        // Closing runs in a fresh task: the serving task may be cancelled, and a cancelled task
        // cannot run the connections' close on their thread pool.
        let logger = self.logger
        let close: @Sendable () async -> Void = {
            logger.notice("listeners and services stopped; closing the database connections")
            await Task { await database.shutdown() }.value
            logger.notice("keyway-server stopped")
        }
        do {
            try await group.run()
        } catch {
            await close()
            throw error
        }
        await close()
    }

    /// How long a graceful stop may take before what is still running is cancelled.
    static let gracefulShutdownLimit: Duration = .seconds(15)

    /// Shuts the server down gracefully; ``run(onListening:)`` returns once it has. Asked before
    /// `run` starts, the server stops right after starting. Calling it again does nothing more.
    public func shutDown() async {
        await shutdownSwitch.trigger()
    }

    /// The PowerAuth 3.3 endpoints (`/pa/v3/…`), and its admin and user routes.
    private func registerPowerAuth(
        on router: RouteTable, accessTokens: AccessTokenVerifier, dpop: DPoPVerifier,
        verifier: PowerAuthSignatureVerifier, issuer: @escaping @Sendable () -> String
    ) {
        let clock = configuration.clock
        let keystore = PowerAuthKeystore(
            database: database, clock: clock, secrets: powerAuthSecrets, rateLimits: configuration.limits.rateLimits)
        let signed = PowerAuthSignedEncryption(database: database, clock: clock, verifier: verifier, keystore: keystore)
        let tokens = PowerAuthTokenService(signed: signed, logger: logger)
        let recovery = PowerAuthRecoveryService(
            database: database, clock: clock, secrets: powerAuthSecrets, verifier: verifier, keystore: keystore,
            logger: logger)
        PowerAuthRoutes(
            keystore: keystore,
            activations: PowerAuthActivationService(
                database: database, clock: clock, secrets: powerAuthSecrets, keystore: keystore,
                customCredentials: PowerAuthCustomCredentials(
                    database: database, clock: clock, issuer: issuer, accessTokens: accessTokens, dpop: dpop,
                    logger: logger),
                logger: logger),
            devices: PowerAuthDeviceService(signed: signed, logger: logger),
            tokens: tokens, recovery: recovery, verifier: verifier,
            userInfo: PowerAuthUserInfoService(database: database, clock: clock, secrets: powerAuthSecrets, keystore: keystore),
            clock: clock, logger: logger
        ).register(on: router)
        PowerAuthAdminRoutes(
            administration: PowerAuthAdministration(database: database, clock: clock, secrets: powerAuthSecrets),
            tokens: tokens, recovery: recovery, logger: logger
        ).register(on: router)
        PowerAuthBackendRoutes(
            verification: PowerAuthBackendVerification(database: database, clock: clock, verifier: verifier, logger: logger),
            services: PowerAuthBackendServices(database: database, clock: clock, secrets: powerAuthSecrets, logger: logger),
            logger: logger
        ).register(on: router)
    }

    private func buildRouter() throws -> Router<KeywayRequestContext> {
        try routeTable().router
    }

    /// Every route of the server, the `405` answers included: the table ``buildRouter()`` serves,
    /// and whose paths the OpenAPI document describes.
    func routeTable() throws -> RouteTable {
        let router = RouteTable()
        router.add(
            middleware: RequestLogMiddleware(
                logger: logger, metrics: metrics, trustedProxies: configuration.trustedProxies, inProgress: requestsInProgress,
                countsRoundTrips: configuration.database.isPostgres))
        let issuerBox = issuer
        let fallback = "http://\(configuration.host):\(configuration.port)"
        let currentIssuer: @Sendable () -> String = { issuerBox.current ?? fallback }
        let accessTokens = AccessTokenVerifier(keys: keys, clock: configuration.clock)
        let clients = ClientAuthenticator(
            database: database, clock: configuration.clock, issuer: currentIssuer,
            clientSecrets: ClientSecretDerivation(key: clientSecretKey))
        let dpop = DPoPVerifier(clock: configuration.clock, nonceKey: dpopNonceKey)
        let userTokens = AccessTokenAuthenticator(
            database: database, issuer: currentIssuer, accessTokens: accessTokens, dpop: dpop)
        // The checks the route table runs before the routes of the classes that have one.
        router.guards = AccessGuards(
            database: database, clients: clients, tokens: userTokens, metrics: configuration.metrics)
        let cors = CORS(database: database)
        let userRoutes = UserRoutes(
            database: database, clock: configuration.clock, tokens: userTokens, logger: logger, cors: cors)
        FlowRoutes(engine: engine, tokens: userTokens).register(on: router)
        let approvals = ApprovalService(database: database, clock: configuration.clock, issuer: currentIssuer, logger: logger)
        let powerAuthVerifier = PowerAuthSignatureVerifier(
            database: database, clock: configuration.clock, secrets: powerAuthSecrets, logger: logger,
            rateLimits: configuration.limits.rateLimits)
        DeviceRoutes(approvals: approvals, powerAuth: powerAuthVerifier).register(on: router)
        AppAttestRoutes(service: appAttest).register(on: router)
        let tokenEndpoint = TokenEndpoint(
            database: database, clock: configuration.clock, issuer: currentIssuer,
            tokens: TokenIssuer(keys: keys, lifetimes: configuration.tokenLifetimes),
            refreshTokens: RefreshTokenDerivation(key: refreshKey), dpop: dpop,
            issuerKeys: JWKSFetcher(clock: configuration.clock, logger: logger), appAttest: appAttest,
            metrics: metrics, logger: logger)
        GuestRoutes(guests: GuestService(engine: engine, tokenEndpoint: tokenEndpoint), issuer: currentIssuer)
            .register(on: router)
        try OAuthRoutes(
            tokenEndpoint: tokenEndpoint,
            revocationEndpoint: RevocationEndpoint(
                database: database, clock: configuration.clock, issuer: currentIssuer,
                accessTokens: accessTokens, logger: logger),
            introspectionEndpoint: IntrospectionEndpoint(
                database: database, clock: configuration.clock, issuer: currentIssuer,
                accessTokens: accessTokens),
            registrationEndpoint: RegistrationEndpoint(
                database: database, clock: configuration.clock,
                clientSecrets: ClientSecretDerivation(key: clientSecretKey), logger: logger),
            keys: keys, issuer: currentIssuer, cors: cors
        ).register(on: router)
        userRoutes.register(on: router)
        let hostedLogin = HostedLogin(
            database: database, clock: configuration.clock, engine: engine,
            flowAPI: FlowAPIClient(engine: engine, tokens: userTokens),
            sessions: BrowserSessions(
                database: database, clock: configuration.clock, lifetime: configuration.limits.browserSessionLifetime,
                codeLifetime: configuration.limits.authorizationCodeLifetime),
            keys: keys, issuer: currentIssuer, secrets: engine.secrets, logger: logger,
            activations: PowerAuthAdministration(database: database, clock: configuration.clock, secrets: powerAuthSecrets),
            visitLifetime: configuration.limits.flowLifetime)
        HostedLoginRoutes(login: hostedLogin).register(on: router)
        registerPowerAuth(
            on: router, accessTokens: accessTokens, dpop: dpop,
            verifier: powerAuthVerifier, issuer: currentIssuer)
        HealthRoutes(database: database).register(on: router)
        MetricsRoutes(metrics: metrics, database: database, clock: configuration.clock).register(on: router)
        let keyRing = keys
        AdminRoutes(service: admin, logger: logger, keysChanged: { try await keyRing.reload() }).register(on: router)
        if let outbox {
            DevRoutes(outbox: outbox).register(on: router)
        }
        try OpenAPIRoutes().register(on: router)
        router.answerOtherMethods()
        return router
    }

    /// The routes of the metrics listener: `GET /metrics` alone, behind the same guard class as
    /// on the public listener (``MetricsAuthorization``, in its listener's mode).
    func metricsRouteTable() -> RouteTable {
        let router = RouteTable()
        router.add(
            middleware: RequestLogMiddleware(logger: logger, metrics: metrics, trustedProxies: configuration.trustedProxies))
        let issuerBox = issuer
        let fallback = "http://\(configuration.host):\(configuration.port)"
        let currentIssuer: @Sendable () -> String = { issuerBox.current ?? fallback }
        let accessTokens = AccessTokenVerifier(keys: keys, clock: configuration.clock)
        router.guards = AccessGuards(
            database: database,
            clients: ClientAuthenticator(
                database: database, clock: configuration.clock, issuer: currentIssuer,
                clientSecrets: ClientSecretDerivation(key: clientSecretKey)),
            tokens: AccessTokenAuthenticator(
                database: database, issuer: currentIssuer, accessTokens: accessTokens,
                dpop: DPoPVerifier(clock: configuration.clock, nonceKey: dpopNonceKey)),
            metrics: configuration.metrics, onMetricsListener: true)
        MetricsRoutes(metrics: metrics, database: database, clock: configuration.clock).register(on: router)
        router.answerOtherMethods()
        return router
    }
}
