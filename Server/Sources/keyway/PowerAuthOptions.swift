import ArgumentParser
import Foundation
import Keyway
import KeywayPowerAuthClient

/// The options of the commands that use this machine's PowerAuth activation: the application's
/// PowerAuth configuration (the JSON object of `GET /admin/applications/{configId}/powerauth`).
struct PowerAuthOptions: ParsableArguments {
    @Option(
        name: .customLong("powerauth-config"),
        help: "The application's PowerAuth configuration, a JSON file as the admin API shows it (default: $KEYWAY_POWERAUTH_CONFIG).")
    var powerAuthConfig: String?

    /// The configuration file's path, from the option or the environment.
    var configPath: String? {
        if let powerAuthConfig, !powerAuthConfig.isEmpty { return powerAuthConfig }
        let environment = ProcessInfo.processInfo.environment["KEYWAY_POWERAUTH_CONFIG"]
        return environment?.isEmpty == false ? environment : nil
    }

    /// Reads the configuration for `server`.
    func configuration(server: String) throws -> PowerAuthConfiguration {
        guard let path = configPath else {
            throw ValidationError(
                "Pass --powerauth-config FILE or set KEYWAY_POWERAUTH_CONFIG (the JSON of GET /admin/applications/CONFIG_ID/powerauth).")
        }
        guard let url = URL(string: server) else { throw ValidationError("--server is not a URL.") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("Cannot read the PowerAuth configuration \(path).")
        }
        do {
            return try PowerAuthConfiguration(baseURL: url, json: data)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// This machine's activation of the application, kept encrypted in the state folder: the key
    /// in `activation.key` (mode 0600), the entries in `activation.kwstore`. The biometry factor
    /// is ``TerminalBiometry``.
    func makeActivation(_ client: ClientOptions) throws -> DeviceActivation {
        let configuration = try configuration(server: client.server)
        let directory = URL(fileURLWithPath: client.stateDirectory, isDirectory: true)
        do {
            let storage = try FileSecureStorage(
                directory: directory, namespace: "activation",
                keySource: .keyFile(directory.appendingPathComponent("activation.key")))
            // The biometry factor's stand-in keeps its key beside the activation and asks for a "y".
            return DeviceActivation(
                configuration: configuration, appIdentifier: ClientOptions.appIdentifier, storage: storage,
                options: DeviceActivationOptions(
                    transport: client.transport, biometry: TerminalBiometry(storage: storage, terminal: Terminal()),
                    deviceInfo: ProcessInfo.processInfo.hostName))
        } catch {
            throw ValidationError(String(describing: error))
        }
    }
}

extension PowerAuthOptions {
    /// Runs a command's work with this machine's activation and a terminal; failures end the
    /// command as ``DeviceCommandSupport/running(terminal:server:_:)`` says.
    func withActivation(_ client: ClientOptions, _ work: (DeviceActivation, Terminal) async throws -> Void) async throws {
        let terminal = Terminal()
        let activation = try makeActivation(client)
        try await DeviceCommandSupport.running(terminal: terminal, server: client.server) {
            try await work(activation, terminal)
        }
    }
}

/// Passwords for the activation commands: an option, or a prompt without echo (from a pipe, a
/// plain line).
enum PasswordInput {
    /// What a command says when standard input ends before a password came (it then exits 1).
    static let endOfInput =
        "Error: no password: standard input ended before one came. Type it at the prompt, pipe it on standard input, or give --password."

    /// The password of `--password`, or one read at the prompt; `nil` at end of input (said on
    /// standard error).
    static func read(_ given: String?, question: String, terminal: Terminal) -> String? {
        if let given { return given }
        guard let typed = terminal.askSecret(question) else {
            terminal.status(endOfInput)
            return nil
        }
        return typed
    }

    /// A new password: `--password`, or typed (twice at a terminal); `nil` when left empty or at
    /// end of input.
    static func readNew(_ given: String?, question: String, terminal: Terminal) -> String?? {
        if let given { return .some(given) }
        while true {
            guard let first = terminal.askSecret(question) else {
                terminal.status(endOfInput)
                return .none
            }
            if first.isEmpty { return .some(nil) }
            guard terminal.interactive else { return .some(first) }
            guard let again = terminal.askSecret("Type it again: ") else {
                terminal.status(endOfInput)
                return .none
            }
            if again == first { return .some(first) }
            terminal.status("  ✕ The two passwords differ.")
        }
    }
}
