import Foundation

/// The area of the SDK a log line comes from.
public enum LogTag: String, Sendable, CaseIterable {
    case flow, http, storage, crypto, oauth, session
}

/// How important a log line is.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    case trace, debug, info, notice, warning, error

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One log line, as a sink receives it: secrets already masked unless masking was turned off.
public struct LogRecord: Sendable, Equatable {
    public var date: Date
    public var level: LogLevel
    public var tag: LogTag
    public var message: String
    public var metadata: [String: String]

    public init(date: Date, level: LogLevel, tag: LogTag, message: String, metadata: [String: String] = [:]) {
        self.date = date
        self.level = level
        self.tag = tag
        self.message = message
        self.metadata = metadata
    }

    /// `2026-11-23T10:00:00Z notice [http] message key=value …`.
    public var formatted: String {
        let stamp = ISO8601DateFormatter().string(from: date)
        let extras = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(stamp) \(level) [\(tag.rawValue)] \(message)\(extras.isEmpty ? "" : " \(extras)")"
    }
}

/// Where log lines go. Write your own to forward them to your logging system.
public protocol LogSink: Sendable {
    func write(_ record: LogRecord)
}

/// Writes each line to standard error.
public struct StandardErrorLogSink: LogSink {
    public init() {}

    public func write(_ record: LogRecord) {
        FileHandle.standardError.write(Data((record.formatted + "\n").utf8))
    }
}

/// Keeps lines in memory (tests, diagnostics screens).
public final class MemoryLogSink: LogSink, @unchecked Sendable {
    // @unchecked: `records` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: [LogRecord] = []

    public init() {}

    public func write(_ record: LogRecord) { lock.withLock { stored.append(record) } }

    /// Every line written so far.
    public var records: [LogRecord] { lock.withLock { stored } }
}

/// The SDK's logging: which lines are written (``level``, ``tags``), where (``sinks``), and
/// whether secrets are masked. With no sink (the default) nothing is logged.
public struct KeywayLogging: Sendable {
    /// The least important level written.
    public var level: LogLevel
    /// The areas written.
    public var tags: Set<LogTag>
    public var sinks: [any LogSink]
    /// Secrets (tokens, codes, verifiers, secrets in headers) are replaced by `•••` plus their
    /// length. Turning this off is for debugging only: every line then starts with a warning.
    public var masksSensitiveValues: Bool

    public init(
        level: LogLevel = .info, tags: Set<LogTag> = Set(LogTag.allCases), sinks: [any LogSink] = [],
        masksSensitiveValues: Bool = true
    ) {
        self.level = level
        self.tags = tags
        self.sinks = sinks
        self.masksSensitiveValues = masksSensitiveValues
    }

    /// The prefix of every line while masking is off.
    public static let unmaskedWarning = "⚠️ UNMASKED SECRETS IN THIS LOG — never enable this in a release build ⚠️"
}

/// A metadata value of a log line: plain, or a secret that is masked.
enum LogValue: Sendable {
    case plain(String)
    case secret(String)
}

/// Writes log lines through the configured sinks.
struct KeywayLogger: Sendable {
    let configuration: KeywayLogging
    let clock: any KeywayClock

    /// Whether a line of `level` in `tag` would be written anywhere: check it before building
    /// costly metadata.
    func isEnabled(_ level: LogLevel, _ tag: LogTag) -> Bool {
        !configuration.sinks.isEmpty && level >= configuration.level && configuration.tags.contains(tag)
    }

    func log(_ level: LogLevel, _ tag: LogTag, _ message: @autoclosure () -> String, _ metadata: [String: LogValue] = [:]) {
        guard isEnabled(level, tag) else { return }
        let masks = configuration.masksSensitiveValues
        var rendered: [String: String] = [:]
        for (key, value) in metadata {
            switch value {
            case .plain(let text): rendered[key] = text
            case .secret(let text): rendered[key] = masks ? Self.mask(text) : text
            }
        }
        let text = masks ? message() : "\(KeywayLogging.unmaskedWarning) \(message())"
        let record = LogRecord(date: clock.now(), level: level, tag: tag, message: text, metadata: rendered)
        for sink in configuration.sinks { sink.write(record) }
    }

    static func mask(_ secret: String) -> String { "•••(\(secret.count))" }

    /// Header values that carry credentials.
    static let secretHeaders: Set<String> = ["authorization", "dpop", "x-keyway-flow-token", "cookie", "x-keyway-device-signature"]
}
