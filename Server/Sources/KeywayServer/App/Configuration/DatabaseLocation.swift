import Foundation

/// Where the server keeps its data, parsed from the `--database` URL.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite database file (`sqlite:PATH` or `sqlite:///absolute/path`).
    case sqlite(path: String)
    /// A PostgreSQL database (`postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=…`), which
    /// several server instances may share.
    case postgres(PostgresLocation)

    /// The embedded default: `./.keyway/keyway.sqlite`.
    public static let embeddedDefault = DatabaseLocation.sqlite(path: ".keyway/keyway.sqlite")

    /// Whether this is a PostgreSQL database.
    var isPostgres: Bool {
        if case .postgres = self { true } else { false }
    }

    /// Parses a database URL.
    public init(parsing text: String) throws(ConfigurationError) {
        if text.hasPrefix("sqlite://") {
            let path = String(text.dropFirst("sqlite://".count))
            guard !path.isEmpty else { throw ConfigurationError("The database URL \(text) names no file.") }
            self = .sqlite(path: path)
        } else if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw ConfigurationError("The database URL \(text) names no file.") }
            self = .sqlite(path: path)
        } else if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(parsing: text))
        } else {
            throw ConfigurationError(
                "Unsupported database URL: use sqlite:PATH (for example sqlite:.keyway/keyway.sqlite) or postgres://USER:PASSWORD@HOST:PORT/DATABASE."
            )
        }
    }

    /// The URL, with any password masked.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let location): location.description
        }
    }
}

/// A PostgreSQL server and database, from a `postgres://` URL.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is protected.
    public enum TLSMode: String, Sendable, Equatable {
        /// Plain TCP (a database on loopback or a private network).
        case disable
        /// TLS when the server offers it.
        case prefer
        /// TLS or no connection.
        case require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// The schema Keyway's tables live in (`search_path`); `nil` uses the server's default
    /// (`public`). Lets several deployments share one database.
    public var schema: String?

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        tls: TLSMode = .prefer, schema: String? = nil
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.schema = schema
    }

    /// Whether `name` can be a schema: 1–63 lower-case letters, digits and `_`, not starting
    /// with a digit.
    public static func isValidSchema(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.utf8.count <= 63, !("0"..."9").contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// Parses `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require&schema=NAME]`.
    public init(parsing text: String) throws(ConfigurationError) {
        let refusal = ConfigurationError(
            "The database URL is not postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require].")
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme),
            let host = components.host, !host.isEmpty, let user = components.user, !user.isEmpty
        else { throw refusal }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty, !database.contains("/"), components.fragment == nil else { throw refusal }
        var tls = TLSMode.prefer
        var schema: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = TLSMode(rawValue: value) else { throw refusal }
                tls = mode
            case "schema":
                guard let value = item.value, Self.isValidSchema(value) else {
                    throw ConfigurationError(
                        "The database URL's schema must be 1 to 63 lower-case letters, digits and _, not starting with a digit.")
                }
                schema = value
            default:
                throw ConfigurationError("The database URL has an unknown parameter \(item.name.debugDescription).")
            }
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw refusal }
        self.init(
            host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: port,
            username: user.removingPercentEncoding ?? user, password: components.password?.removingPercentEncoding,
            database: database.removingPercentEncoding ?? database, tls: tls, schema: schema)
    }

    /// The URL with the password masked.
    public var description: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let credentials = password == nil ? username : "\(username):********"
        return "postgres://\(credentials)@\(hostPart):\(port)/\(database)?sslmode=\(tls.rawValue)"
            + (schema.map { "&schema=\($0)" } ?? "")
    }
}

/// A configuration value the server cannot start with.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
