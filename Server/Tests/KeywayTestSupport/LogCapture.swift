import Foundation
import Logging

/// Collects every log line (message and metadata, as a log backend would print them).
public final class LogCapture: @unchecked Sendable {
    // @unchecked: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}

    /// Keeps a line.
    public func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    /// Every line kept, in order.
    public var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    /// A logger at `trace` level writing here.
    public func logger(label: String = "keyway-test") -> Logger {
        var logger = Logger(label: label) { label in CapturingHandler(label: label, capture: self) }
        logger.logLevel = .trace
        return logger
    }
}

/// The log handler of ``LogCapture``.
struct CapturingHandler: LogHandler {
    let label: String
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        capture.append("\(event.level) \(rendered) [\(event.source)] \(event.message)")
    }
}
