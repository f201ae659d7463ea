import ArgumentParser
import Foundation
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import Logging

/// What `keyway-server serve` runs with, once its sources are merged: for each setting its
/// option when given, else its environment variable, else the configuration file's value, else
/// the default. Secrets never come from the file: the admin token and the master key come from
/// their own files (`adminTokenFile`, `masterKeyFile`) or from the environment.
struct ServeSettings: Codable, Equatable {
    var host = "127.0.0.1"
    var port = 8080
    var database = "sqlite:.keyway/keyway.sqlite"
    var databasePoolSize = 10
    var databaseLeaseTimeoutMs = 1_500
    var databaseQueryTimeoutMs = 10_000
    var sweepIntervalSeconds = 60
    var masterKeyFile: String?
    var issuer: String?
    var production = false
    var devConfigId: String?
    var deliveryCommand: String?
    var smtpUrl: String?
    var smtpTls: String?
    var smtpFrom: String?
    var smtpCaFile: String?
    var smtpPasswordFile: String?
    var smtpTimeout = 15
    var smtpHeloName: String?
    var smtpAllowPlaintext = false
    var trustIssuerFiles: [String] = []
    var maxFlowStartsPerAddress = RateLimits().flowStartsPerAddress
    var maxCodeSendsPerAddress = RateLimits().codeSendsPerAddress
    var maxChecksPerAddress = RateLimits().checksPerAddress
    var adminTokenFile: String?
    var unsafeDevModeOnNetwork = false
    var appAttestRootFiles: [String] = []
    var logLevel = "info"
    var logFormat = "text"
    /// Whether start-up migrates the database (`--no-migrate`: no).
    var migrateOnStart = true
    var allowNewerSchema = false
    /// Addresses and CIDR ranges of the proxies whose forwarding headers are believed.
    var trustedProxies: [String] = []
    /// `HOST:PORT` of the metrics listener.
    var metricsListen: String?
    var metricsTokenFile: String?
    var metricsOnPublicListener = false

    /// The environment variable of each setting.
    static let environment: [String: String] = [
        "host": "KEYWAY_HOST", "port": "KEYWAY_PORT", "database": "KEYWAY_DATABASE_URL",
        "databasePoolSize": "KEYWAY_DATABASE_POOL_SIZE", "databaseLeaseTimeoutMs": "KEYWAY_DATABASE_LEASE_TIMEOUT_MS",
        "databaseQueryTimeoutMs": "KEYWAY_DATABASE_QUERY_TIMEOUT_MS", "sweepIntervalSeconds": "KEYWAY_SWEEP_INTERVAL_SECONDS",
        "masterKeyFile": "KEYWAY_MASTER_KEY_FILE",
        "issuer": "KEYWAY_ISSUER", "production": "KEYWAY_PRODUCTION", "devConfigId": "KEYWAY_DEV_CONFIG_ID",
        "deliveryCommand": "KEYWAY_DELIVERY_COMMAND", "adminTokenFile": "KEYWAY_ADMIN_TOKEN_FILE",
        "logLevel": "KEYWAY_LOG_LEVEL", "logFormat": "KEYWAY_LOG_FORMAT",
        "maxFlowStartsPerAddress": "KEYWAY_MAX_FLOW_STARTS_PER_ADDRESS",
        "maxCodeSendsPerAddress": "KEYWAY_MAX_CODE_SENDS_PER_ADDRESS", "maxChecksPerAddress": "KEYWAY_MAX_CHECKS_PER_ADDRESS",
        "smtpUrl": "KEYWAY_SMTP_URL", "smtpTls": "KEYWAY_SMTP_TLS", "smtpFrom": "KEYWAY_SMTP_FROM",
        "smtpCaFile": "KEYWAY_SMTP_CA_FILE", "smtpPasswordFile": "KEYWAY_SMTP_PASSWORD_FILE",
        "smtpTimeout": "KEYWAY_SMTP_TIMEOUT", "smtpHeloName": "KEYWAY_SMTP_HELO_NAME",
        "smtpAllowPlaintext": "KEYWAY_SMTP_ALLOW_PLAINTEXT", "migrateOnStart": "KEYWAY_MIGRATE_ON_START",
        "allowNewerSchema": "KEYWAY_ALLOW_NEWER_SCHEMA", "trustedProxies": "KEYWAY_TRUSTED_PROXIES",
        "metricsListen": "KEYWAY_METRICS_LISTEN", "metricsTokenFile": "KEYWAY_METRICS_TOKEN_FILE",
        "metricsOnPublicListener": "KEYWAY_METRICS_ON_PUBLIC_LISTENER",
    ]

    /// The settings of a configuration file; an unknown member is refused (a misspelt setting
    /// would otherwise be ignored silently).
    static func file(_ path: String) throws -> [String: JSONValue] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("The configuration file \(path) cannot be read.")
        }
        guard case .object(let members)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw ValidationError("The configuration file \(path) is not a JSON object.")
        }
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw ValidationError(
                "The configuration file \(path) has an unknown setting \(unknown.debugDescription); the settings are \(known.sorted().joined(separator: ", ")).")
        }
        return members
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case host, port, database, databasePoolSize, databaseLeaseTimeoutMs, databaseQueryTimeoutMs, masterKeyFile, issuer, production, devConfigId, deliveryCommand
        case sweepIntervalSeconds
        case trustIssuerFiles, maxFlowStartsPerAddress, maxCodeSendsPerAddress, maxChecksPerAddress, adminTokenFile
        case unsafeDevModeOnNetwork, appAttestRootFiles, logLevel, logFormat
        case smtpUrl, smtpTls, smtpFrom, smtpCaFile, smtpPasswordFile, smtpTimeout, smtpHeloName, smtpAllowPlaintext
        case migrateOnStart, allowNewerSchema, trustedProxies
        case metricsListen, metricsTokenFile, metricsOnPublicListener
    }
}

extension ServeOptions {
    /// The settings in effect: options over environment over file over defaults, checked.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServeSettings {
        var settings = ServeSettings()
        var file: [String: JSONValue] = [:]
        if let path = config ?? environment["KEYWAY_CONFIG"].flatMap({ $0.isEmpty ? nil : $0 }) {
            file = try ServeSettings.file(path)
        }
        func text(_ key: ServeSettings.CodingKeys) throws -> String? {
            if let value = environment[ServeSettings.environment[key.rawValue] ?? ""], !value.isEmpty { return value }
            guard let value = file[key.rawValue] else { return nil }
            guard case .string(let string) = value else {
                throw ValidationError("The setting \(key.rawValue) of the configuration file must be a string.")
            }
            return string
        }
        func number(_ key: ServeSettings.CodingKeys) throws -> Int? {
            if let value = environment[ServeSettings.environment[key.rawValue] ?? ""], !value.isEmpty {
                guard let number = Int(value) else {
                    throw ValidationError("\(ServeSettings.environment[key.rawValue]!) must be a whole number.")
                }
                return number
            }
            guard let value = file[key.rawValue] else { return nil }
            guard case .number(let number) = value, let whole = Int(exactly: number) else {
                throw ValidationError("The setting \(key.rawValue) of the configuration file must be a whole number.")
            }
            return whole
        }
        func flag(_ key: ServeSettings.CodingKeys) throws -> Bool? {
            if let value = environment[ServeSettings.environment[key.rawValue] ?? ""], !value.isEmpty {
                switch value.lowercased() {
                case "1", "true", "yes": return true
                case "0", "false", "no": return false
                default: throw ValidationError("\(ServeSettings.environment[key.rawValue]!) must be true or false.")
                }
            }
            guard let value = file[key.rawValue] else { return nil }
            guard case .bool(let bool) = value else {
                throw ValidationError("The setting \(key.rawValue) of the configuration file must be true or false.")
            }
            return bool
        }
        func list(_ key: ServeSettings.CodingKeys) throws -> [String]? {
            guard let value = file[key.rawValue] else { return nil }
            guard case .array(let items) = value, let strings = Optional(items.compactMap(\.stringValue)),
                strings.count == items.count
            else { throw ValidationError("The setting \(key.rawValue) of the configuration file must be a list of strings.") }
            return strings
        }

        settings.host = try host ?? text(.host) ?? settings.host
        settings.port = try port ?? number(.port) ?? settings.port
        settings.database = try database ?? text(.database) ?? settings.database
        settings.databasePoolSize = try databasePoolSize ?? number(.databasePoolSize) ?? settings.databasePoolSize
        settings.databaseLeaseTimeoutMs =
            try databaseLeaseTimeoutMs ?? number(.databaseLeaseTimeoutMs) ?? settings.databaseLeaseTimeoutMs
        settings.databaseQueryTimeoutMs =
            try databaseQueryTimeoutMs ?? number(.databaseQueryTimeoutMs) ?? settings.databaseQueryTimeoutMs
        settings.sweepIntervalSeconds = try sweepIntervalSeconds ?? number(.sweepIntervalSeconds) ?? settings.sweepIntervalSeconds
        settings.masterKeyFile = try masterKeyFile ?? text(.masterKeyFile)
        settings.issuer = try issuer ?? text(.issuer)
        settings.production = try production || (flag(.production) ?? false)
        settings.devConfigId = try devConfigId ?? text(.devConfigId)
        settings.deliveryCommand = try deliveryCommand ?? text(.deliveryCommand)
        settings.smtpUrl = try smtpUrl ?? text(.smtpUrl)
        settings.smtpTls = try smtpTls ?? text(.smtpTls)
        settings.smtpFrom = try smtpFrom ?? text(.smtpFrom)
        settings.smtpCaFile = try smtpCaFile ?? text(.smtpCaFile)
        settings.smtpPasswordFile = try smtpPasswordFile ?? text(.smtpPasswordFile)
        settings.smtpTimeout = try smtpTimeout ?? number(.smtpTimeout) ?? settings.smtpTimeout
        settings.smtpHeloName = try smtpHeloName ?? text(.smtpHeloName)
        settings.smtpAllowPlaintext = try smtpAllowPlaintext || (flag(.smtpAllowPlaintext) ?? false)
        settings.trustIssuerFiles = try trustedIssuerFiles + (list(.trustIssuerFiles) ?? [])
        settings.maxFlowStartsPerAddress =
            try maxFlowStartsPerAddress ?? number(.maxFlowStartsPerAddress) ?? settings.maxFlowStartsPerAddress
        settings.maxCodeSendsPerAddress =
            try maxCodeSendsPerAddress ?? number(.maxCodeSendsPerAddress) ?? settings.maxCodeSendsPerAddress
        settings.maxChecksPerAddress = try maxChecksPerAddress ?? number(.maxChecksPerAddress) ?? settings.maxChecksPerAddress
        settings.adminTokenFile = try adminTokenFile ?? text(.adminTokenFile)
        settings.unsafeDevModeOnNetwork = try unsafeDevModeOnNetwork || (flag(.unsafeDevModeOnNetwork) ?? false)
        settings.appAttestRootFiles = try appAttestRootFiles.isEmpty ? (list(.appAttestRootFiles) ?? []) : appAttestRootFiles
        settings.logLevel = try logLevel ?? text(.logLevel) ?? settings.logLevel
        settings.logFormat = try logFormat ?? text(.logFormat) ?? settings.logFormat
        settings.migrateOnStart = try noMigrate ? false : (flag(.migrateOnStart) ?? true)
        settings.allowNewerSchema = try allowNewerSchema || (flag(.allowNewerSchema) ?? false)
        if let given = trustedProxies ?? environment["KEYWAY_TRUSTED_PROXIES"].flatMap({ $0.isEmpty ? nil : $0 }) {
            settings.trustedProxies = given.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        } else {
            settings.trustedProxies = try list(.trustedProxies) ?? []
        }
        settings.metricsListen = try metricsListen ?? text(.metricsListen)
        settings.metricsTokenFile = try metricsTokenFile ?? text(.metricsTokenFile)
        settings.metricsOnPublicListener = try metricsOnPublicListener || (flag(.metricsOnPublicListener) ?? false)
        try settings.check(adminTokenGiven: adminToken != nil)
        return settings
    }
}

extension ServeSettings {
    /// Refuses settings the server cannot run with, naming the option.
    func check(adminTokenGiven: Bool) throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard (1...1_000).contains(databasePoolSize) else {
            throw ValidationError("--database-pool-size must be between 1 and 1000.")
        }
        guard (100...600_000).contains(databaseLeaseTimeoutMs) else {
            throw ValidationError("--database-lease-timeout-ms must be between 100 and 600000.")
        }
        guard (100...600_000).contains(databaseQueryTimeoutMs) else {
            throw ValidationError("--database-query-timeout-ms must be between 100 and 600000.")
        }
        guard (1...86_400).contains(sweepIntervalSeconds) else {
            throw ValidationError("--sweep-interval-seconds must be between 1 and 86400.")
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
        do {
            _ = try DatabaseLocation(parsing: database)
        } catch {
            throw ValidationError(error.description)
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
        if adminTokenGiven, adminTokenFile != nil {
            throw ValidationError("Give the admin token once: --admin-token or --admin-token-file, not both.")
        }
        if !production, !LoopbackHost.contains(host), !unsafeDevModeOnNetwork {
            throw ValidationError(
                "Dev mode serves every one-time code at /dev/outbox without authentication, so it listens on loopback only (127.0.0.1, ::1 or localhost), not on \(host). Run with --production, or force dev mode onto the network with --unsafe-dev-mode-on-network."
            )
        }
        if let smtpTls, SMTPRelayConfiguration.Security(rawValue: smtpTls) == nil {
            throw ValidationError("--smtp-tls must be starttls, tls or none.")
        }
        if smtpUrl == nil {
            let given = [
                ("--smtp-tls", smtpTls != nil), ("--smtp-from", smtpFrom != nil), ("--smtp-ca-file", smtpCaFile != nil),
                ("--smtp-password-file", smtpPasswordFile != nil), ("--smtp-helo-name", smtpHeloName != nil),
                ("--smtp-allow-plaintext", smtpAllowPlaintext),
            ]
            if let option = given.first(where: \.1)?.0 {
                throw ValidationError("\(option) only applies with --smtp-url (the SMTP relay).")
            }
        } else if smtpFrom == nil {
            throw ValidationError("--smtp-url needs --smtp-from, the sender of projects whose policies name none.")
        }
        if let metricsListen, Self.listener(metricsListen) == nil {
            throw ValidationError("--metrics-listen must be HOST:PORT (127.0.0.1:9464, [::1]:9464), the port 0-65535.")
        }
        if production, unsafeDevModeOnNetwork {
            throw ValidationError("--unsafe-dev-mode-on-network only applies in dev mode; remove it or --production.")
        }
    }
}

extension ServeSettings {
    /// The metrics listener of `HOST:PORT` (an IPv6 address in brackets), or `nil` when it is not one.
    static func listener(_ text: String) -> MetricsExposure.Listener? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65_535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else { return nil }
        return MetricsExposure.Listener(host: host, port: port)
    }
}
