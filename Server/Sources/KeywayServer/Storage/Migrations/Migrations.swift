import Foundation
import SQLKit

/// The schema, as an ordered list of migrations applied once each at start-up.
///
/// The SQL is written to run unchanged on SQLite and PostgreSQL: `TEXT` and `BIGINT` columns only,
/// timestamps as milliseconds since 1970, flags as 0/1.
enum Migrations {
    struct Migration: Sendable {
        let version: Int
        let name: String
        let statements: [String]
    }

    /// Every migration, in order: one file each in `Migrations/`, one line here.
    static let all: [Migration] = [
        v1,
        v2,
        v3,
        v4,
        v5,
        v6,
        v7,
        v8,
        v9,
        v10,
        v11,
        v12,
        v13,
        v14,
        v15,
        v16,
        v17,
        v18,
        v19,
        v20,
        v21,
        v22,
        v23,
        v24,
        v25,
        v26,
        v27,
        v28,
        v29,
        v30,
        v31,
    ]

    /// Applies every migration (up to `through`) the database has not seen yet, each in its own
    /// transaction. Returns the versions applied. A database that holds a migration this server
    /// does not know — migrated by a newer Keyway — is refused (``newerSchema(_:)``) before
    /// anything is applied, unless `allowNewer`.
    @discardableResult
    static func apply(to database: any Database, now: Date, through last: Int = .max, allowNewer: Bool = false)
        async throws -> [Int]
    {
        // Instances starting together on one database migrate once: one at a time holds the
        // lock, and the others then find every version applied.
        try await database.exclusively(.migrations) {
            try await QueryDeadline.$suspended.withValue(true) {
                let current = try await status(of: database)
                if !current.unknown.isEmpty, !allowNewer { throw newerSchema(current) }
                return try await applyUnlocked(to: database, now: now, through: last)
            }
        }
    }

    /// What the database holds of the schema, against the migrations this server knows.
    static func status(of database: any Database) async throws -> SchemaStatus {
        // On the writer, as the migrations themselves: what they just wrote is what it reads.
        let versions = try await database.write { repositories in
            try await createTable(repositories)
            return try await repositories.sql.raw("SELECT version FROM keyway_migrations ORDER BY version").all()
                .map { Int(try $0.decode(column: "version", as: Int64.self)) }
        }
        let known = Set(all.map(\.version))
        return SchemaStatus(
            latestKnown: all.map(\.version).max() ?? 0, applied: versions.filter(known.contains),
            pending: all.map(\.version).filter { !versions.contains($0) }, unknown: versions.filter { !known.contains($0) })
    }

    /// Refuses to start on a database that is not migrated, for a server started without
    /// migrating (``ServerConfiguration/migrateOnStart``): pending migrations, or (unless
    /// `allowNewer`) unknown ones.
    static func requireCurrent(_ database: any Database, allowNewer: Bool) async throws {
        let current = try await status(of: database)
        if !current.unknown.isEmpty, !allowNewer { throw newerSchema(current) }
        guard current.pending.isEmpty else {
            throw ConfigurationError(
                "The database needs migration\(current.pending.count == 1 ? "" : "s") \(current.pending.map(String.init).joined(separator: ", ")): run keyway-server migrate first (this server was started with --no-migrate).")
        }
    }

    /// The refusal of a database migrated by a newer Keyway.
    static func newerSchema(_ status: SchemaStatus) -> ConfigurationError {
        let versions = status.unknown.map(String.init).joined(separator: ", ")
        return ConfigurationError(
            "The database was migrated by a newer Keyway: it holds migration\(status.unknown.count == 1 ? "" : "s") \(versions), which this server (migrations 1 to \(status.latestKnown)) does not know. Run the newer version, or restore the backup taken before the upgrade; --allow-newer-schema starts anyway, when the newer version's release notes say its schema works with this one.")
    }

    private static func createTable(_ repositories: Repositories) async throws {
        try await repositories.sql.raw(
            """
            CREATE TABLE IF NOT EXISTS keyway_migrations (
                version BIGINT PRIMARY KEY,
                name TEXT NOT NULL,
                applied_at BIGINT NOT NULL
            )
            """
        ).run()
    }

    private static func applyUnlocked(to database: any Database, now: Date, through last: Int) async throws -> [Int] {
        var applied: [Int] = []
        for migration in all where migration.version <= last {
            let didApply = try await database.write { repositories -> Bool in
                let sql = repositories.sql
                let existing = try await sql.raw(
                    "SELECT version FROM keyway_migrations WHERE version = \(bind: Int64(migration.version))"
                ).first()
                guard existing == nil else { return false }
                for statement in migration.statements {
                    try await sql.raw(SQLQueryString(statement)).run()
                }
                try await sql.raw(
                    """
                    INSERT INTO keyway_migrations (version, name, applied_at)
                    VALUES (\(bind: Int64(migration.version)), \(bind: migration.name), \(bind: now.epochMilliseconds))
                    """
                ).run()
                return true
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }
}

/// The schema a database holds, against the migrations this server knows
/// (`keyway-server migrate status`).
package struct SchemaStatus: Codable, Sendable, Equatable {
    /// The newest migration this server knows.
    package var latestKnown: Int
    /// The migrations the database has seen that this server knows.
    package var applied: [Int]
    /// The migrations this server knows that the database has not seen.
    package var pending: [Int]
    /// The migrations the database has seen that this server does not know: a newer Keyway's.
    package var unknown: [Int]
}
