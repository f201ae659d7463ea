import ArgumentParser
import Foundation
import Keyway

/// The options every command that talks to a server shares.
struct ClientOptions: ParsableArguments {
    @Option(help: "The Keyway server URL.")
    var server = "http://127.0.0.1:8080"

    @Option(help: "The application's config ID (default: $KEYWAY_CONFIG_ID).")
    var configId: String?

    @Option(help: "Where the CLI keeps its encrypted session (default: $KEYWAY_HOME or ~/.keyway).")
    var stateDir: String?

    /// The SDK for the chosen server and application.
    func makeKeyway(primaryMethodSelectionPolicy: PrimaryMethodSelectionPolicy = .manual) throws -> Keyway {
        guard let configId = configId ?? ProcessInfo.processInfo.environment["KEYWAY_CONFIG_ID"], !configId.isEmpty
        else {
            throw ValidationError("Pass --config-id (the dev server prints it at start) or set KEYWAY_CONFIG_ID.")
        }
        guard let url = URL(string: server) else { throw ValidationError("--server is not a URL.") }
        do {
            return try Keyway(
                configId: configId, baseURL: url,
                options: KeywayOptions(primaryMethodSelectionPolicy: primaryMethodSelectionPolicy))
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// The session of `keyway`, stored encrypted under the state folder: the key in `cli.key`
    /// (mode 0600), the tokens in `cli.kwstore`, one entry per config ID.
    func makeSession(_ keyway: Keyway) throws -> KeywaySession {
        let directory = URL(fileURLWithPath: stateDirectory, isDirectory: true)
        do {
            let storage = try FileSecureStorage(
                directory: directory, namespace: "cli", keySource: .keyFile(directory.appendingPathComponent("cli.key")))
            return KeywaySession(keyway: keyway, storage: storage)
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    private var stateDirectory: String {
        if let stateDir, !stateDir.isEmpty { return stateDir }
        let environment = ProcessInfo.processInfo.environment
        if let home = environment["KEYWAY_HOME"], !home.isEmpty { return home }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".keyway").path
    }
}
