import Foundation
import Logging

/// A logger whose lines (message and metadata) are kept for inspection.
final class CapturedLog: @unchecked Sendable {
    // @unchecked: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    var all: [String] { lock.withLock { lines } }

    func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    /// A logger at `trace` level writing here.
    func logger() -> Logger {
        var logger = Logger(label: "test") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            log.append("\(event.level) \(event.message) \(merged.map { "\($0)=\($1)" }.sorted().joined(separator: " "))")
        }
    }
}
