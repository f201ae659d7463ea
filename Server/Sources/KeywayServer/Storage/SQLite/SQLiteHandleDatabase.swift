import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// SQLKit on an ``SQLiteHandle``: repositories build their SQL with SQLKit as on any engine, and
/// each statement runs synchronously on the caller's thread.
struct SQLiteHandleDatabase: SQLDatabase {
    let handle: SQLiteHandle
    let logger: Logger
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    private static let encoder = SQLiteDataEncoder()

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        do {
            try run(query, onRow)
            return eventLoop.makeSucceededVoidFuture()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try run(query, onRow)
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }

    /// The storage value of a bound parameter: the types repositories bind directly, anything
    /// else through SQLiteKit's encoder.
    private static func sqliteValue(_ bind: any Encodable & Sendable) throws -> SQLiteData {
        switch bind {
        case let text as String: return .text(text)
        case let integer as Int64: return .integer(Int(integer))
        case let integer as Int: return .integer(integer)
        case let text as String?: return text.map { .text($0) } ?? .null
        case let integer as Int64?: return integer.map { .integer(Int($0)) } ?? .null
        default: return try encoder.encode(bind)
        }
    }

    private func run(_ query: any SQLExpression, _ onRow: (any SQLRow) -> Void) throws {
        let (sql, binds) = serialize(query)
        let values = try binds.map(Self.sqliteValue)
        for row in try handle.execute(sql, values) {
            onRow(SQLiteHandleRow(row: row))
        }
    }
}

/// A row of an ``SQLiteHandle`` result, decoded as SQLiteKit decodes SQLiteNIO rows.
struct SQLiteHandleRow: SQLRow {
    let row: SQLiteHandle.Row
    private static let decoder = SQLiteDataDecoder()

    struct MissingColumn: Error, CustomStringConvertible {
        let column: String
        var description: String { "No column \(column) in the result." }
    }

    var allColumns: [String] { row.columns }

    func contains(column: String) -> Bool { row.columns.contains(column) }

    func decodeNil(column: String) throws -> Bool {
        (row.value(column) ?? .null) == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let value = row.value(column) else { throw MissingColumn(column: column) }
        // The types repositories read, converted directly; anything else through SQLiteKit's decoder.
        switch value {
        case .text(let text) where D.self == String.self || D.self == String?.self:
            return text as! D
        case .integer(let integer) where D.self == Int64.self || D.self == Int64?.self:
            return Int64(integer) as! D
        case .integer(let integer) where D.self == Int.self || D.self == Int?.self:
            return integer as! D
        case .null:
            if let optional = D.self as? any ExpressibleByNilLiteral.Type,
                let none = optional.init(nilLiteral: ()) as? D
            {
                return none
            }
        default:
            break
        }
        return try Self.decoder.decode(D.self, from: value)
    }
}
