import Foundation
import Logging

extension AdminService {
    /// Applies the migrations the database at `location` has not seen (`keyway-server migrate`),
    /// as a server's start does, and answers them with the schema it then holds. A database
    /// migrated by a newer Keyway is refused unless `allowNewer`.
    package static func migrate(_ location: DatabaseLocation, allowNewer: Bool, logger: Logger) async throws
        -> (applied: [Int], status: SchemaStatus)
    {
        try await withDatabase(location, logger: logger) { database in
            let applied = try await Migrations.apply(to: database, now: Date(), allowNewer: allowNewer)
            return (applied, try await Migrations.status(of: database))
        }
    }

    /// The schema the database at `location` holds, against the migrations this server knows
    /// (`keyway-server migrate status`); nothing is applied.
    package static func schemaStatus(_ location: DatabaseLocation, logger: Logger) async throws -> SchemaStatus {
        try await withDatabase(location, logger: logger) { try await Migrations.status(of: $0) }
    }

    private static func withDatabase<T: Sendable>(
        _ location: DatabaseLocation, logger: Logger, _ body: (any Database) async throws -> T
    ) async throws -> T {
        let database = try await location.open(poolSize: 2, readerCount: 1, logger: logger)
        do {
            let result = try await body(database)
            await Task { await database.shutdown() }.value
            return result
        } catch {
            await Task { await database.shutdown() }.value
            throw error
        }
    }
}
