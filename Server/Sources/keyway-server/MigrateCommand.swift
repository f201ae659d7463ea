import ArgumentParser
import Foundation
import KeywayServer
import Logging

/// `keyway-server migrate-sqlite-to-postgres`: moves an embedded deployment to PostgreSQL.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-sqlite-to-postgres",
        abstract: "Copies every row of a SQLite database (stop the server first) into a new, empty PostgreSQL database, in one transaction; then run the servers on PostgreSQL with the same master key.")

    @Option(help: ArgumentHelp("The SQLite database: sqlite:PATH or a file path.", valueName: "url"))
    var from = "sqlite:.keyway/keyway.sqlite"

    @Option(help: ArgumentHelp("The PostgreSQL database: postgres://USER:PASSWORD@HOST:PORT/DATABASE[?…].", valueName: "url"))
    var to: String

    func run() async throws {
        var logger = Logger(label: "keyway") { _ in KeywayLogHandler.standardError(label: "keyway") }
        logger.logLevel = .warning
        let source: DatabaseLocation
        let target: DatabaseLocation
        do {
            source = try DatabaseLocation(parsing: from.hasPrefix("sqlite:") ? from : "sqlite:\(from)")
            target = try DatabaseLocation(parsing: to)
        } catch {
            throw ValidationError(error.description)
        }
        guard case .sqlite(let path) = source, FileManager.default.fileExists(atPath: path) else {
            throw ValidationError("--from names no SQLite file.")
        }
        do {
            let copied = try await source.copySQLite(to: target, logger: logger)
            for table in copied.keys.sorted() where copied[table]! > 0 {
                Output.line("\(table): \(copied[table]!)")
            }
            Output.line("Copied \(copied.values.reduce(0, +)) rows into \(target).")
        } catch let error as ConfigurationError {
            Output.error(error.description)
            throw ExitCode.failure
        }
    }
}
