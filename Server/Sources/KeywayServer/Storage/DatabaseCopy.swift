import Logging
import Foundation
import SQLKit

/// Moves an embedded deployment to PostgreSQL: every row of every table of a SQLite database,
/// copied into an empty PostgreSQL database at the same schema version, in one transaction.
/// Users, their methods and profiles, trusted devices, sessions, refresh token families, keys and
/// applications all come across as they are; the secrets stay sealed under the same master key.
enum DatabaseCopy {
    /// Why a copy cannot be made.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Copies `source` into `target` and answers the rows copied per table.
    ///
    /// - Throws: ``Refusal`` when the target holds data already; the driver's error when a row
    ///   does not go in (nothing is kept then: the copy is one transaction).
    static func copy(from source: any Database, to target: any Database, now: Date) async throws -> [String: Int] {
        try await Migrations.apply(to: source, now: now)
        try await Migrations.apply(to: target, now: now)
        let tables = try await source.read { repositories in try await Self.tablesInDependencyOrder(repositories.sql) }
        // Column types as the target declares them, to bind each value as its column wants it.
        let columnTypes = try await target.read { repositories -> [String: [String: String]] in
            var types: [String: [String: String]] = [:]
            for table in tables {
                let rows = try await repositories.sql.raw(
                    """
                    SELECT column_name, data_type FROM information_schema.columns
                    WHERE table_name = \(bind: table) AND table_schema = current_schema()
                    """
                ).all()
                types[table] = Dictionary(
                    uniqueKeysWithValues: try rows.map {
                        (try $0.decode(column: "column_name", as: String.self), try $0.decode(column: "data_type", as: String.self))
                    })
            }
            return types
        }
        for table in tables {
            let count = try await target.read { repositories in
                try await repositories.sql.raw("SELECT COUNT(*) AS n FROM \(ident: table)").first()?
                    .decode(column: "n", as: Int64.self) ?? 0
            }
            guard count == 0 else {
                throw Refusal(description: "The target database is not empty (\(table) has \(count) rows): copy into a new database.")
            }
        }
        let snapshot = try await source.read { repositories -> [String: [[String: SQLCopyValue]]] in
            var rowsByTable: [String: [[String: SQLCopyValue]]] = [:]
            for table in tables {
                let types = columnTypes[table] ?? [:]
                rowsByTable[table] = try await repositories.sql.raw("SELECT * FROM \(ident: table)").all().map { row in
                    var values: [String: SQLCopyValue] = [:]
                    for column in row.allColumns {
                        values[column] = try SQLCopyValue(row, column: column, targetType: types[column] ?? "text")
                    }
                    return values
                }
            }
            return rowsByTable
        }
        return try await target.write { repositories in
            var copied: [String: Int] = [:]
            for table in tables {
                let rows = snapshot[table] ?? []
                for row in rows {
                    let columns = row.keys.sorted()
                    var query = SQLQueryString("INSERT INTO \(ident: table) (")
                    query.appendInterpolation(SQLList(columns.map { SQLIdentifier($0) }))
                    query.appendLiteral(") VALUES (")
                    query.appendInterpolation(SQLList(columns.map { row[$0]!.expression }))
                    query.appendLiteral(")")
                    try await repositories.sql.raw(query).run()
                }
                copied[table] = rows.count
            }
            return copied
        }
    }

    /// The source's tables (but the migrations table), each after the tables it references.
    static func tablesInDependencyOrder(_ sql: any SQLDatabase) async throws -> [String] {
        let names = try await sql.raw(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'keyway_migrations' ORDER BY name"
        ).all().map { try $0.decode(column: "name", as: String.self) }
        var references: [String: Set<String>] = [:]
        for name in names {
            let keys = try await sql.raw("SELECT \"table\" AS referenced FROM pragma_foreign_key_list(\(bind: name))").all()
            references[name] = Set(try keys.map { try $0.decode(column: "referenced", as: String.self) }).subtracting([name])
        }
        var ordered: [String] = []
        var placed = Set<String>()
        while ordered.count < names.count {
            let ready = names.filter { !placed.contains($0) && (references[$0] ?? []).isSubset(of: placed) }
            guard !ready.isEmpty else { throw Refusal(description: "The tables reference each other in a cycle.") }
            ordered += ready
            placed.formUnion(ready)
        }
        return ordered
    }
}

/// One value of a copied row, bound as its target column wants it.
enum SQLCopyValue: Sendable {
    case integer(Int64?)
    case text(String?)

    init(_ row: any SQLRow, column: String, targetType: String) throws {
        if try row.decodeNil(column: column) {
            self = targetType == "bigint" || targetType == "integer" ? .integer(nil) : .text(nil)
            return
        }
        switch targetType {
        case "bigint", "integer", "smallint":
            if let value = try? row.decode(column: column, as: Int64.self) {
                self = .integer(value)
            } else {
                guard let value = Int64(try row.decode(column: column, as: String.self)) else {
                    throw DatabaseCopy.Refusal(description: "The column \(column) holds a value that is not a whole number.")
                }
                self = .integer(value)
            }
        default:
            if let value = try? row.decode(column: column, as: String.self) {
                self = .text(value)
            } else {
                self = .text(String(try row.decode(column: column, as: Int64.self)))
            }
        }
    }

    var expression: any SQLExpression {
        switch self {
        case .integer(let value): SQLBind(value)
        case .text(let value): SQLBind(value)
        }
    }
}

extension DatabaseLocation {
    /// Copies the SQLite database at `self` into the empty PostgreSQL database `target`; answers
    /// the rows copied per table. The deployment then runs on `target` with the same master key.
    ///
    /// - Throws: ``ConfigurationError`` when `self` is not SQLite or `target` not PostgreSQL, or
    ///   when the target is not empty; the driver's error when a row does not go in (nothing is
    ///   kept then).
    package func copySQLite(to target: DatabaseLocation, logger: Logger) async throws -> [String: Int] {
        guard case .sqlite = self else { throw ConfigurationError("The source must be a SQLite database (sqlite:PATH).") }
        guard case .postgres = target else {
            throw ConfigurationError("The target must be a PostgreSQL database (postgres://…).")
        }
        let source = try await open(readerCount: 1, logger: logger)
        do {
            let destination = try await target.open(poolSize: 2, logger: logger)
            do {
                let copied = try await DatabaseCopy.copy(from: source, to: destination, now: Date())
                await destination.shutdown()
                await source.shutdown()
                return copied
            } catch let refusal as DatabaseCopy.Refusal {
                await destination.shutdown()
                throw ConfigurationError(refusal.description)
            } catch {
                await destination.shutdown()
                throw error
            }
        } catch {
            await source.shutdown()
            throw error
        }
    }
}
