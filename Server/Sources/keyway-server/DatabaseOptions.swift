import ArgumentParser
import Foundation
import KeywayProtocol
import KeywayServer
import Logging

/// The `--database` option of the administration subcommands, and opening the admin service on it.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The database: sqlite:PATH, a file path, or postgres://… (default: $KEYWAY_DATABASE_URL, else the server's default).",
            valueName: "url"))
    var database: String?

    @Option(
        help: ArgumentHelp(
            "A file whose first line is the master key the secrets at rest are sealed with (default: $KEYWAY_MASTER_KEY, else the dev key file beside a SQLite database).",
            valueName: "path"))
    var masterKeyFile: String?

    /// The master key from `--master-key-file` or `KEYWAY_MASTER_KEY`, if given.
    static func masterKey(file: String?) throws -> MasterKey? {
        do {
            if let file { return try MasterKey.read(path: file) }
            if let text = ProcessInfo.processInfo.environment["KEYWAY_MASTER_KEY"], !text.isEmpty {
                return try MasterKey(text: text)
            }
            return nil
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The database URL: the option, else `KEYWAY_DATABASE_URL`, else the embedded default.
    static func url(_ option: String?) -> String {
        if let option { return option }
        if let environment = ProcessInfo.processInfo.environment["KEYWAY_DATABASE_URL"], !environment.isEmpty {
            return environment
        }
        return "sqlite:.keyway/keyway.sqlite"
    }

    /// The location `--database` names; a bare path is a SQLite file.
    func location() throws -> DatabaseLocation {
        let url = Self.url(database)
        do {
            let isURL = url.hasPrefix("sqlite:") || url.hasPrefix("postgres://") || url.hasPrefix("postgresql://")
            return try DatabaseLocation(parsing: isURL ? url : "sqlite:\(url)")
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Runs `body` with the admin service over the database, closing it afterwards. Admin
    /// errors are printed to standard error and end the command with status 1.
    func withService<T>(devMode: Bool = true, _ body: (AdminService) async throws -> T) async throws -> T {
        var logger = Logger(label: "keyway") { _ in KeywayLogHandler.standardError(label: "keyway") }
        logger.logLevel = .warning
        let service = try await AdminService.open(
            try location(), devMode: devMode, masterKey: try Self.masterKey(file: masterKeyFile), logger: logger)
        do {
            let result = try await body(service)
            await service.close()
            return result
        } catch let error as AdminError {
            await service.close()
            Output.error(error.description)
            throw ExitCode.failure
        } catch {
            await service.close()
            throw error
        }
    }
}

/// Writing results: JSON documents and lines of text to standard output, failures to standard error.
enum Output {
    /// `value` as indented JSON with sorted keys and RFC 3339 dates.
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = WireCoding.makeEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        line(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
