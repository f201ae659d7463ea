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
            and every one-time code is printed to the log and served at GET /dev/outbox.
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free port).")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "The database URL: sqlite:PATH or postgres://USER:PASSWORD@HOST:PORT/DATABASE[?sslmode=disable|prefer|require] (default: $KEYWAY_DATABASE_URL, else sqlite:.keyway/keyway.sqlite).",
            valueName: "url"))
    var database: String?

    @Option(help: "Connections to a PostgreSQL database, at most (1-1000).")
    var databasePoolSize = 10

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the master key (32 bytes, base64) the signing and secret keys are sealed with at rest (default: $KEYWAY_MASTER_KEY; in dev mode a key file beside the SQLite database, created on first start). Production mode needs one.",
            valueName: "path"))
    var masterKeyFile: String?

    @Option(help: "The OAuth issuer URL (default: the listening URL).")
    var issuer: String?

    @Flag(help: "Turn dev mode off: no dev application, no dev outbox.")
    var production = false

    @Option(help: "Pin the config ID of the dev application (for scripts and tests).")
    var devConfigId: String?

    @Option(help: "Outside dev mode: an executable that delivers each message, given as JSON on standard input.")
    var deliveryCommand: String?

    @Option(
        name: .customLong("trust-issuer"),
        help: ArgumentHelp(
            "A JSON file describing an external issuer whose tokens may be exchanged for Keyway tokens (repeatable).",
            discussion: #"{"issuer": "…", "audience": "…", "jwks": {"keys": […]} or "jwksURL": "https://…", "linkByVerifiedEmail": true, "createUsers": true}"#,
            valueName: "path"))
    var trustedIssuerFiles: [String] = []

    @Option(help: "Flows one client address may start in 15 minutes (0: no limit; behind a proxy every client shares its address).")
    var maxFlowStartsPerAddress = RateLimits().flowStartsPerAddress

    @Option(help: "Codes (email, SMS) one client address may have sent in 15 minutes (0: no limit).")
    var maxCodeSendsPerAddress = RateLimits().codeSendsPerAddress

    @Option(help: "Codes and passwords one client address may have checked in 15 minutes (0: no limit).")
    var maxChecksPerAddress = RateLimits().checksPerAddress

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

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Log lines as text or as JSON objects, one per line (json).")
    var logFormat: String = "text"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard (1...1_000).contains(databasePoolSize) else {
            throw ValidationError("--database-pool-size must be between 1 and 1000.")
        }
        guard maxFlowStartsPerAddress >= 0 else { throw ValidationError("--max-flow-starts-per-address must not be negative.") }
        guard maxCodeSendsPerAddress >= 0 else { throw ValidationError("--max-code-sends-per-address must not be negative.") }
        guard maxChecksPerAddress >= 0 else { throw ValidationError("--max-checks-per-address must not be negative.") }
        guard KeywayLogHandler.Format(rawValue: logFormat) != nil else {
            throw ValidationError("--log-format must be text or json.")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.")
        }
        if let issuer {
            guard let url = URL(string: issuer), let scheme = url.scheme, ["http", "https"].contains(scheme),
                url.host != nil, url.query == nil, url.fragment == nil, !issuer.hasSuffix("/")
            else {
                throw ValidationError("--issuer must be an http(s) URL without query, fragment or trailing slash.")
            }
        }
        if production, devConfigId != nil {
            throw ValidationError("--dev-config-id only applies in dev mode; remove --production or the pin.")
        }
        if adminToken != nil, adminTokenFile != nil {
            throw ValidationError("Give the admin token once: --admin-token or --admin-token-file, not both.")
        }
        if !production, !LoopbackHost.contains(host), !unsafeDevModeOnNetwork {
            throw ValidationError(
                "Dev mode serves every one-time code at /dev/outbox without authentication, so it listens on loopback only (127.0.0.1, ::1 or localhost), not on \(host). Run with --production, or force dev mode onto the network with --unsafe-dev-mode-on-network."
            )
        }
        if production, unsafeDevModeOnNetwork {
            throw ValidationError("--unsafe-dev-mode-on-network only applies in dev mode; remove it or --production.")
        }
    }

    /// The admin token from --admin-token-file, --admin-token or $KEYWAY_ADMIN_TOKEN, in that order.
    func configuredAdminToken(logger: Logger) throws -> String? {
        if let adminTokenFile {
            guard let contents = try? String(contentsOfFile: adminTokenFile, encoding: .utf8) else {
                throw ValidationError("--admin-token-file \(adminTokenFile) cannot be read.")
            }
            let token = contents.split(whereSeparator: \.isNewline).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            guard !token.isEmpty else { throw ValidationError("--admin-token-file \(adminTokenFile) is empty.") }
            return token
        }
        if let adminToken {
            logger.warning(
                "the admin token was given with --admin-token: other users of this machine can read it in the process list; use KEYWAY_ADMIN_TOKEN or --admin-token-file instead"
            )
            return adminToken
        }
        return ProcessInfo.processInfo.environment["KEYWAY_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() async throws {
        let format = KeywayLogHandler.Format(rawValue: logFormat) ?? .text
        LoggingSystem.bootstrap { KeywayLogHandler.standardError(label: $0, format: format) }
        var logger = Logger(label: "keyway")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let location: DatabaseLocation
        do {
            location = try DatabaseLocation(parsing: DatabaseOptions.url(database))
        } catch {
            throw ValidationError(error.description)
        }
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerAddress = maxFlowStartsPerAddress
        limits.rateLimits.codeSendsPerAddress = maxCodeSendsPerAddress
        limits.rateLimits.checksPerAddress = maxChecksPerAddress
        var configuration = ServerConfiguration(
            host: host, port: port, database: location, issuer: issuer, devMode: !production,
            devConfigId: devConfigId, deliveryCommand: deliveryCommand, limits: limits,
            adminToken: try configuredAdminToken(logger: logger))
        configuration.databasePoolSize = databasePoolSize
        configuration.masterKey = try DatabaseOptions.masterKey(file: masterKeyFile)
        configuration.appAttestRoots = try appAttestRootFiles.map { path in
            guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ValidationError("--app-attest-root \(path) cannot be read.")
            }
            return pem
        }
        if !production, !LoopbackHost.contains(host) {
            logger.warning(
                "dev mode on \(host) (--unsafe-dev-mode-on-network): every one-time code is served at /dev/outbox to anyone who can reach this server"
            )
        }
        let server: KeywayServerApp
        do {
            server = try await KeywayServerApp.bootstrap(configuration: configuration, logger: logger)
        } catch let error as ConfigurationError {
            logger.critical("\(error.description)")
            throw ExitCode.failure
        }
        do {
            for path in trustedIssuerFiles {
                try await server.trustIssuer(try TrustedIssuerFile.load(path))
            }
        } catch let error as ConfigurationError {
            logger.critical("\(error.description)")
            throw ExitCode.failure
        }
        let devConfigId = server.devConfigId
        let createdAdminToken = server.createdAdminToken
        let log = logger
        try await server.run { address in
            log.notice("keyway-server listening on \(address.host):\(address.port), issuer \(address.issuer)")
            // Written straight to the file handle so it is not held in a stdio buffer when the
            // output is a pipe or a file. The admin token goes only here, never to the log.
            if let devConfigId {
                FileHandle.standardOutput.write(
                    Data(Banner.dev(configId: devConfigId, issuer: address.issuer, database: location.description).utf8))
            }
            if let createdAdminToken {
                FileHandle.standardOutput.write(Data(Banner.adminToken(createdAdminToken.revealed).utf8))
            }
        }
    }
}
