import Foundation

/// The area of the SDK a log line comes from: its ``LogRecord/category``.
enum LogTag: String, Sendable, CaseIterable {
    case flow, http, storage, crypto, oauth, session
}

/// How important a log line is.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable {
    /// The levels, from least to most important: `trace`, `debug`, `info`, `notice`, `warning`,
    /// `error`.
    case trace, debug, info, notice, warning, error

    /// Whether `lhs` is less important than `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: A level.
    ///   - rhs: Another level.
    /// - Returns: `true` when `lhs` is declared before `rhs` (`trace` first, `error` last).
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One log line, as a sink receives it: secrets already masked unless masking was turned off.
public struct LogRecord: Sendable, Equatable {
    /// When the line was written, by the SDK's clock.
    public var date: Date
    /// How important the line is.
    public var level: LogLevel
    /// The area of the SDK it comes from: `flow` (steps, method choices, device trust), `http`
    /// (requests and their answers), `storage` (secure storage), `crypto` (ID tokens and App
    /// Attest), `oauth` (token endpoint calls) or `session` (stored sessions and their refreshes).
    public var category: String
    /// The text; it starts with ``KeywayLogging/unmaskedWarning`` while masking is off.
    public var message: String
    /// Values about the line, by key; secrets among them masked unless masking is off.
    public var metadata: [String: String]

    /// A log line with the given values.
    init(date: Date, level: LogLevel, category: String, message: String, metadata: [String: String] = [:]) {
        self.date = date
        self.level = level
        self.category = category
        self.message = message
        self.metadata = metadata
    }

    /// `2026-11-23T10:00:00Z notice [http] message key=value …`.
    public var formatted: String {
        let stamp = ISO8601DateFormatter().string(from: date)
        let extras = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        return "\(stamp) \(level) [\(category)] \(message)\(extras.isEmpty ? "" : " \(extras)")"
    }
}

/// Where log lines go. Write your own to forward them to your logging system.
public protocol LogSink: Sendable {
    /// Receives one line, on the thread that logged it.
    ///
    /// - Parameter record: The line.
    func write(_ record: LogRecord)
}

/// Writes each line to standard error.
public struct StandardErrorLogSink: LogSink {
    /// A sink that writes to standard error.
    public init() {}

    /// Writes the record's ``LogRecord/formatted`` text and a line break to standard error.
    ///
    /// - Parameter record: The line.
    public func write(_ record: LogRecord) {
        FileHandle.standardError.write(Data((record.formatted + "\n").utf8))
    }
}

/// Keeps lines in memory (tests, diagnostics screens).
public final class MemoryLogSink: LogSink, @unchecked Sendable {
    // @unchecked: `records` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: [LogRecord] = []

    /// An empty sink.
    public init() {}

    /// Keeps the record, after those written before.
    ///
    /// - Parameter record: The line.
    public func write(_ record: LogRecord) { lock.withLock { stored.append(record) } }

    /// Every line written so far.
    public var records: [LogRecord] { lock.withLock { stored } }
}

/// The SDK's logging: which lines are written (``level``, ``categories``), where (``sinks``), and
/// whether secrets are masked. With no sink (the default) nothing is logged.
public struct KeywayLogging: Sendable {
    /// The least important level written.
    public var level: LogLevel
    /// The areas written (``LogRecord/category``); `nil` for all of them.
    public var categories: Set<String>?
    /// Where lines go; none (the default) logs nothing.
    public var sinks: [any LogSink]
    /// Secrets (tokens, codes, verifiers, secrets in headers) are replaced by `•••` plus their
    /// length. Turning this off is for debugging only: every line then starts with a warning.
    public var masksSensitiveValues: Bool

    /// Logging options; every one not given takes its default.
    ///
    /// - Parameters:
    ///   - level: The least important level written; `info` by default.
    ///   - categories: The areas written (`flow`, `http`, `storage`, `crypto`, `oauth`,
    ///     `session`); all by default.
    ///   - sinks: Where lines go; none by default, which logs nothing.
    ///   - masksSensitiveValues: Whether secrets are masked; `true` by default.
    public init(
        level: LogLevel = .info, categories: Set<String>? = nil, sinks: [any LogSink] = [],
        masksSensitiveValues: Bool = true
    ) {
        self.level = level
        self.categories = categories
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
        !configuration.sinks.isEmpty && level >= configuration.level && (configuration.categories?.contains(tag.rawValue) ?? true)
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
        let record = LogRecord(date: clock.now(), level: level, category: tag.rawValue, message: text, metadata: rendered)
        for sink in configuration.sinks { sink.write(record) }
    }

    static func mask(_ secret: String) -> String { "•••(\(secret.count))" }

    /// Header values that carry credentials.
    static let secretHeaders: Set<String> = ["authorization", "dpop", "x-keyway-flow-token", "cookie", "x-keyway-device-signature"]
}
