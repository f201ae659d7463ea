import ArgumentParser
import Foundation
import Keyway
import KeywaySoftwarePasskeys

/// The options every command that talks to a server shares.
struct ClientOptions: ParsableArguments {
    /// The CLI's app identifier, part of its device key and record names.
    static let appIdentifier = "dev.keyway.cli"

    @Option(
        name: .customLong("server"),
        help: "The Keyway server URL (default: $KEYWAY_SERVER, else the server of the last sign-in, else http://127.0.0.1:8080).")
    var serverOption: String?

    /// The server when nothing names one.
    static let defaultServer = "http://127.0.0.1:8080"

    /// The server the command talks to: `--server`, else `$KEYWAY_SERVER`, else the one the last
    /// sign-in in this state folder used (its `server` file), else ``defaultServer``.
    var server: String {
        if let serverOption, !serverOption.isEmpty { return serverOption }
        if let given = ProcessInfo.processInfo.environment["KEYWAY_SERVER"], !given.isEmpty { return given }
        if let remembered = try? String(contentsOfFile: rememberedServerPath, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines),
            !remembered.isEmpty, URL(string: remembered)?.host != nil
        {
            return remembered
        }
        return Self.defaultServer
    }

    /// Where the server of the last sign-in is kept.
    var rememberedServerPath: String {
        URL(fileURLWithPath: stateDirectory, isDirectory: true).appendingPathComponent("server").path
    }

    /// Keeps ``server`` for the next commands, once a sign-in with it succeeded (best effort: a
    /// folder that cannot be written only means the next command needs `--server` again).
    func rememberServer() {
        try? FileManager.default.createDirectory(
            atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = FileManager.default.createFile(
            atPath: rememberedServerPath, contents: Data((server + "\n").utf8), attributes: [.posixPermissions: 0o600])
    }

    @Option(help: "The application's config ID (default: $KEYWAY_CONFIG_ID).")
    var configId: String?

    @Option(help: "Where the CLI keeps its encrypted session and device key (default: $KEYWAY_HOME or ~/.keyway).")
    var stateDir: String?

    @Option(
        name: .customLong("request-timeout"),
        help: "Seconds a request waits for the server's answer, 1 to 600 (default: $KEYWAY_REQUEST_TIMEOUT, else 30).")
    var requestTimeoutOption: Double?

    /// The request timeout when neither `--request-timeout` nor `KEYWAY_REQUEST_TIMEOUT` gives one.
    static let defaultRequestTimeout: TimeInterval = 30

    /// Seconds a request waits for the server's answer: `--request-timeout`, else
    /// `$KEYWAY_REQUEST_TIMEOUT`, else ``defaultRequestTimeout`` (checked by ``validate()``).
    var requestTimeout: TimeInterval {
        if let requestTimeoutOption { return requestTimeoutOption }
        if let given = ProcessInfo.processInfo.environment["KEYWAY_REQUEST_TIMEOUT"], let seconds = TimeInterval(given) {
            return seconds
        }
        return Self.defaultRequestTimeout
    }

    /// The transport of the command's requests, with ``requestTimeout``.
    var transport: URLSessionTransport { URLSessionTransport(timeout: requestTimeout) }

    func validate() throws {
        if let given = ProcessInfo.processInfo.environment["KEYWAY_REQUEST_TIMEOUT"], requestTimeoutOption == nil,
            !given.isEmpty, TimeInterval(given) == nil
        {
            throw ValidationError("KEYWAY_REQUEST_TIMEOUT is a number of seconds, 1 to 600.")
        }
        guard (1...600).contains(requestTimeout) else {
            throw ValidationError(
                requestTimeoutOption != nil
                    ? "--request-timeout is 1 to 600 seconds." : "KEYWAY_REQUEST_TIMEOUT is 1 to 600 seconds.")
        }
    }

    /// The SDK for the chosen server and application, with trusted devices on: after a second
    /// factor the SDK enrols this machine (named after its host name) and later sign-ins prove it
    /// instead, when the application's policy allows it. The device records and software keys are
    /// kept encrypted under the state folder: the key in `devices.key` (mode 0600), the entries in
    /// `devices.kwstore`.
    /// `fallbackConfigID` is used when neither `--config-id` nor `KEYWAY_CONFIG_ID` gives one (the
    /// PowerAuth configuration's `configId`, for the activation commands).
    func makeKeyway(
        primaryMethodSelectionPolicy: PrimaryMethodSelectionPolicy = .manual, fallbackConfigID: String? = nil
    ) throws -> KeywayClient {
        guard let configId = configId ?? ProcessInfo.processInfo.environment["KEYWAY_CONFIG_ID"] ?? fallbackConfigID,
            !configId.isEmpty
        else {
            throw ValidationError("Pass --config-id (the dev server prints it at start) or set KEYWAY_CONFIG_ID.")
        }
        guard let url = URL(string: server) else { throw ValidationError("--server is not a URL.") }
        let directory = URL(fileURLWithPath: stateDirectory, isDirectory: true)
        do {
            let storage = try FileSecureStorage(
                directory: directory, namespace: "devices",
                keySource: .keyFile(directory.appendingPathComponent("devices.key")))
            // No name given: the SDK uses the host name.
            let deviceTrust = DeviceTrustOptions(appIdentifier: Self.appIdentifier, storage: storage)
            // The session, stored encrypted under the state folder: the key in `cli.key` (mode
            // 0600), the tokens in `cli.kwstore`, one entry per config ID.
            let sessionStorage = try FileSecureStorage(
                directory: directory, namespace: "cli", keySource: .keyFile(directory.appendingPathComponent("cli.key")))
            return try KeywayClient(
                configID: configId, baseURL: url,
                options: KeywayOptions(
                    storage: sessionStorage, primaryMethodSelectionPolicy: primaryMethodSelectionPolicy, transport: transport,
                    deviceTrust: deviceTrust))
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// The CLI's passkeys: a software authenticator (keys in a file, not hardware) whose passkeys
    /// are kept encrypted under the state folder — the key in `passkeys.key` (mode 0600), the
    /// passkeys in `passkeys.kwstore` —, answering with the server's origin.
    func makePasskeyAuthenticator() throws -> SoftwarePasskeyAuthenticator {
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            throw ValidationError("--server is not a URL.")
        }
        let port = url.port.map { ":\($0)" } ?? ""
        let directory = URL(fileURLWithPath: stateDirectory, isDirectory: true)
        do {
            let storage = try FileSecureStorage(
                directory: directory, namespace: "passkeys",
                keySource: .keyFile(directory.appendingPathComponent("passkeys.key")))
            return SoftwarePasskeyAuthenticator(
                storage: storage, configuration: .init(origin: "\(scheme)://\(host)\(port)"))
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// The state folder: `--state-dir`, `$KEYWAY_HOME`, or `~/.keyway`.
    var stateDirectory: String {
        if let stateDir, !stateDir.isEmpty { return stateDir }
        let environment = ProcessInfo.processInfo.environment
        if let home = environment["KEYWAY_HOME"], !home.isEmpty { return home }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".keyway").path
    }
}
