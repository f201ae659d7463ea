import ArgumentParser
import Foundation
import KeywayServer
import Logging

/// `keyway-server migrate`: applies the migrations the database has not seen, for deployments
/// that migrate in a step of their own and start their servers with `--no-migrate`.
struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Applies the database migrations this version has and the database has not seen, then prints the schema's status as JSON; `migrate status` only prints it.",
        subcommands: [Status.self])

    @OptionGroup var options: DatabaseOptions

    @Flag(help: "Migrate a database that a newer Keyway already migrated (only when its release notes say its schema works with this version).")
    var allowNewerSchema = false

    /// The schema's status after a `migrate`.
    struct Migrated: Encodable {
        var applied: [Int]
        var schema: SchemaStatus
    }

    func run() async throws {
        let location = try options.location()
        let logger = Self.logger
        do {
            let (applied, status) = try await AdminService.migrate(location, allowNewer: allowNewerSchema, logger: logger)
            try Output.json(Migrated(applied: applied, schema: status))
        } catch let error as ConfigurationError {
            Output.error(error.description)
            throw ExitCode.failure
        }
    }

    static var logger: Logger {
        var logger = Logger(label: "keyway") { _ in KeywayLogHandler.standardError(label: "keyway") }
        logger.logLevel = .warning
        return logger
    }

    /// `keyway-server migrate status`: the migrations applied, pending and unknown (a newer
    /// Keyway's); exits 1 when any is pending or unknown, so a deployment script can wait on it.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints the migrations the database has seen, those it still needs and those this version does not know, as JSON; exits 1 unless it is exactly up to date.")

        @OptionGroup var options: DatabaseOptions

        func run() async throws {
            let status = try await AdminService.schemaStatus(try options.location(), logger: SchemaCommand.logger)
            try Output.json(status)
            guard status.pending.isEmpty, status.unknown.isEmpty else { throw ExitCode.failure }
        }
    }
}
