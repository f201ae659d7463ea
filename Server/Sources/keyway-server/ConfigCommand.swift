import ArgumentParser
import Foundation
import KeywayServer

/// `keyway-server config check`: what `serve` would run with.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Shows the settings the server would run with.", subcommands: [Check.self])

    /// `config check`: merges the options, the environment and the `--config` file as `serve`
    /// does, checks them, and prints them as JSON with the secrets masked.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Checks the settings (options, environment, --config file) and prints those in effect, secrets masked; exits 1 when serve would refuse them.")

        @OptionGroup var options: ServeOptions

        func run() async throws {
            let settings = try options.settings()
            let configuration = try options.serverConfiguration(settings, logger: nil)
            var shown = settings
            // The URL with its password masked.
            shown.database = configuration.database.description
            shown.smtpUrl = settings.smtpUrl.map(SMTPRelayConfiguration.maskingPassword)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            var document = try JSONSerialization.jsonObject(with: encoder.encode(shown)) as? [String: Any] ?? [:]
            document["adminToken"] = configuration.adminToken == nil ? "(the stored one, or a new one at start)" : "********"
            if let smtp = configuration.smtp {
                document["smtpPassword"] = smtp.password == nil ? "(none: no AUTH)" : "********"
                document["smtpRelay"] = smtp.description
            }
            document["masterKey"] =
                configuration.masterKey.map { "key \($0.id)" }
                ?? (settings.production ? "missing: production mode needs one" : "the dev key file beside the database")
            let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            Output.line(String(decoding: data, as: UTF8.self))
            // The checks start-up makes before it opens the database: what serve would refuse.
            do {
                try configuration.validate()
            } catch {
                Output.error(error.description)
                throw ExitCode.failure
            }
        }
    }
}
