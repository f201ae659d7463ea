import Foundation

/// Where the server keeps its data, parsed from the `--database` URL.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    /// A SQLite database file (`sqlite:PATH` or `sqlite:///absolute/path`).
    case sqlite(path: String)

    /// The embedded default: `./.keyway/keyway.sqlite`.
    public static let embeddedDefault = DatabaseLocation.sqlite(path: ".keyway/keyway.sqlite")

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
        } else {
            throw ConfigurationError(
                "Unsupported database URL \(text.debugDescription): use sqlite:PATH (for example sqlite:.keyway/keyway.sqlite)."
            )
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        }
    }
}

/// A configuration value the server cannot start with.
public struct ConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
