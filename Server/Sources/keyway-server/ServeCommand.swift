import ArgumentParser
import Foundation
import KeywayProtocol
import KeywayServer
import Logging

/// `keyway-server serve` (the default subcommand): runs the Keyway authentication server.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Runs the Keyway authentication server (the default subcommand).",
        discussion: """
            With no options the server listens on 127.0.0.1:8080, keeps its data in a SQLite file under \
            ./.keyway/, and runs in dev mode: a dev project and application are created on first start, \
            and every one-time code is printed to the log and served at GET /dev/outbox. Each setting \
            comes from its option, else its environment variable, else the --config file, else its default \
            (`keyway-server config check` prints what is in effect).
            """)

    @OptionGroup var options: ServeOptions

    func run() async throws {
        let settings = try options.settings()
        let format = KeywayLogHandler.Format(rawValue: settings.logFormat) ?? .text
        LoggingSystem.bootstrap { KeywayLogHandler.standardError(label: $0, format: format) }
        var logger = Logger(label: "keyway")
        logger.logLevel = Logger.Level(rawValue: settings.logLevel) ?? .info
        let configuration = try options.serverConfiguration(settings, logger: logger)
        if !settings.production, !LoopbackHost.contains(settings.host) {
            logger.warning(
                "dev mode on \(settings.host) (--unsafe-dev-mode-on-network): every one-time code is served at /dev/outbox to anyone who can reach this server"
            )
        }
        if let warning = Self.plainHTTPIssuerWarning(settings) { logger.warning("\(warning)") }
        let server: KeywayServerApp
        do {
            server = try await KeywayServerApp.bootstrap(configuration: configuration, logger: logger)
        } catch let error as ConfigurationError {
            logger.critical("\(error.description)")
            throw ExitCode.failure
        }
        do {
            for path in settings.trustIssuerFiles {
                try await server.trustIssuer(try TrustedIssuerFile.load(path))
            }
        } catch let error as ConfigurationError {
            logger.critical("\(error.description)")
            throw ExitCode.failure
        }
        let devConfigId = server.devConfigId
        let createdAdminToken = server.createdAdminToken
        let database = configuration.database.description
        let log = logger
        try await server.run { address in
            log.notice("keyway-server listening on \(address.host):\(address.port), issuer \(address.issuer)")
            // Written straight to the file handle so it is not held in a stdio buffer when the
            // output is a pipe or a file. The admin token goes only here, never to the log.
            if let devConfigId {
                FileHandle.standardOutput.write(
                    Data(Banner.dev(configId: devConfigId, issuer: address.issuer, database: database).utf8))
            }
            if let createdAdminToken {
                FileHandle.standardOutput.write(Data(Banner.adminToken(createdAdminToken.revealed).utf8))
            }
        }
    }
}

extension ServeOptions {
    /// Where the metrics are served and their token (`metricsTokenFile`, else `KEYWAY_METRICS_TOKEN`).
    func metricsExposure(_ settings: ServeSettings, logger: Logger?) throws -> MetricsExposure {
        var token: String?
        if let file = settings.metricsTokenFile {
            if let refusal = SecretFile.refusal(path: file, what: "metrics token file") { throw ValidationError(refusal) }
            if let warning = SecretFile.warning(path: file, what: "metrics token file") { logger?.warning("\(warning)") }
            guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("--metrics-token-file \(file) cannot be read.")
            }
            token = contents.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) }
            guard let given = token, !given.isEmpty else { throw ValidationError("--metrics-token-file \(file) is empty.") }
        } else if let given = ProcessInfo.processInfo.environment["KEYWAY_METRICS_TOKEN"], !given.isEmpty {
            token = given
        }
        let exposure = MetricsExposure(
            token: token, listener: settings.metricsListen.flatMap(ServeSettings.listener),
            onPublicListener: settings.metricsOnPublicListener)
        if let problem = exposure.problem { throw ValidationError(problem) }
        if exposure.onPublicListener, exposure.token == nil {
            logger?.notice("/metrics is served on the public listener to the admin token only: give a metrics token (--metrics-token-file) so the scraper holds no more than it needs")
        }
        return exposure
    }

    /// The admin token from `adminTokenFile`, `--admin-token` or `KEYWAY_ADMIN_TOKEN`, in that order.
    func configuredAdminToken(_ settings: ServeSettings, logger: Logger?) throws -> String? {
        if let adminTokenFile = settings.adminTokenFile {
            if let refusal = SecretFile.refusal(path: adminTokenFile, what: "admin token file") {
                throw ValidationError(refusal)
            }
            if let warning = SecretFile.warning(path: adminTokenFile, what: "admin token file") {
                logger?.warning("\(warning)")
            }
            guard let contents = try? String(contentsOfFile: adminTokenFile, encoding: .utf8) else {
                throw ValidationError("--admin-token-file \(adminTokenFile) cannot be read.")
            }
            let token = contents.split(whereSeparator: \.isNewline).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            guard !token.isEmpty else { throw ValidationError("--admin-token-file \(adminTokenFile) is empty.") }
            return token
        }
        if let adminToken {
            logger?.warning(
                "the admin token was given with --admin-token: other users of this machine can read it in the process list; use KEYWAY_ADMIN_TOKEN or --admin-token-file instead"
            )
            return adminToken
        }
        return ProcessInfo.processInfo.environment["KEYWAY_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The SMTP relay of the settings, checked, with its password (from `smtpPasswordFile`,
    /// else `KEYWAY_SMTP_PASSWORD`, else the URL) and CA file read; `nil` without `smtpUrl`.
    func smtpRelay(
        _ settings: ServeSettings, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> SMTPRelayConfiguration? {
        guard let url = settings.smtpUrl else { return nil }
        guard let from = settings.smtpFrom, let sender = EmailSender(parsing: from) else {
            throw ValidationError("--smtp-from must be an address (name@example.com) or Name <name@example.com>.")
        }
        do {
            var relay = try SMTPRelayConfiguration(
                url: url, security: settings.smtpTls.flatMap(SMTPRelayConfiguration.Security.init(rawValue:)),
                sender: sender)
            if let file = settings.smtpPasswordFile {
                guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw ValidationError("--smtp-password-file \(file) cannot be read.")
                }
                let password = contents.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                guard !password.isEmpty else { throw ValidationError("--smtp-password-file \(file) is empty.") }
                relay.password = Sensitive(password)
            } else if let password = environment["KEYWAY_SMTP_PASSWORD"], !password.isEmpty {
                relay.password = Sensitive(password)
            }
            if let file = settings.smtpCaFile {
                guard let pem = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw ValidationError("--smtp-ca-file \(file) cannot be read.")
                }
                relay.trustRootsPEM = pem
            }
            relay.timeoutSeconds = settings.smtpTimeout
            if let name = settings.smtpHeloName { relay.heloName = name }
            relay.allowPlaintext = settings.smtpAllowPlaintext
            try relay.validate()
            return relay
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }

    /// The server's configuration from the settings: the database location, the limits, the
    /// admin token, the master key and the App Attest roots read from their files.
    func serverConfiguration(_ settings: ServeSettings, logger: Logger?) throws -> ServerConfiguration {
        let location: DatabaseLocation
        do {
            location = try DatabaseLocation(parsing: settings.database)
        } catch {
            throw ValidationError(error.description)
        }
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerAddress = settings.maxFlowStartsPerAddress
        limits.rateLimits.codeSendsPerAddress = settings.maxCodeSendsPerAddress
        limits.rateLimits.checksPerAddress = settings.maxChecksPerAddress
        var configuration = ServerConfiguration(
            host: settings.host, port: settings.port, database: location, issuer: settings.issuer,
            devMode: !settings.production, devConfigId: settings.devConfigId, deliveryCommand: settings.deliveryCommand,
            limits: limits, adminToken: try configuredAdminToken(settings, logger: logger))
        configuration.databasePoolSize = settings.databasePoolSize
        configuration.databaseLeaseTimeout = .milliseconds(settings.databaseLeaseTimeoutMs)
        configuration.databaseQueryTimeout = .milliseconds(settings.databaseQueryTimeoutMs)
        configuration.sweepInterval = .seconds(settings.sweepIntervalSeconds)
        configuration.migrateOnStart = settings.migrateOnStart
        configuration.allowNewerSchema = settings.allowNewerSchema
        do {
            configuration.trustedProxies = try TrustedProxies(parsing: settings.trustedProxies)
        } catch {
            throw ValidationError(error.description)
        }
        configuration.metrics = try metricsExposure(settings, logger: logger)
        configuration.masterKey = try DatabaseOptions.masterKey(file: settings.masterKeyFile)
        if let file = settings.masterKeyFile, let warning = SecretFile.warning(path: file, what: "master key file") {
            logger?.warning("\(warning)")
        }
        configuration.smtp = try smtpRelay(settings)
        configuration.appAttestRoots = try settings.appAttestRootFiles.map { path in
            guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ValidationError("--app-attest-root \(path) cannot be read.")
            }
            return pem
        }
        return configuration
    }
}

extension ServeCommand {
    /// In production, an issuer on plain `http` that is not this machine's: browsers and apps
    /// would send codes, tokens and cookies over the network unencrypted.
    static func plainHTTPIssuerWarning(_ settings: ServeSettings) -> String? {
        guard settings.production else { return nil }
        let issuer = settings.issuer ?? "http://\(settings.host):\(settings.port)"
        guard let url = URL(string: issuer), url.scheme == "http", let host = url.host, !LoopbackHost.contains(host)
        else { return nil }
        return "production mode with the plain-http issuer \(issuer): run behind TLS and give --issuer https://…, or codes, tokens and cookies cross the network unencrypted"
    }
}
