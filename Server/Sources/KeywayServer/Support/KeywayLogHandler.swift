import Foundation
import KeywayJOSE
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lean swift-log handler for `keyway-server`: one line per event on standard error,
/// `TIMESTAMP LEVEL LABEL: [SOURCE] MESSAGE key=value …`, timestamps in UTC (ISO 8601, seconds),
/// metadata sorted by key, written with a single `write(2)` so concurrent lines never interleave.
///
/// It formats the timestamp once per second instead of once per line, which matters at the
/// request rates the server sees: one line is logged per request.
public struct KeywayLogHandler: LogHandler {
    /// How lines are written.
    public enum Format: String, Sendable, CaseIterable {
        /// `TIMESTAMP LEVEL LABEL: [SOURCE] MESSAGE key=value …`.
        case text
        /// One JSON object per line: `time`, `level`, `label`, `source`, `message` and the
        /// metadata as string members (a member named like one of those is prefixed with `meta_`).
        case json
    }

    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let fileDescriptor: Int32
    private let format: Format

    /// A handler writing to standard error.
    public static func standardError(label: String) -> KeywayLogHandler {
        KeywayLogHandler(label: label, fileDescriptor: 2)
    }

    /// A handler writing `format` lines to standard error.
    public static func standardError(label: String, format: Format) -> KeywayLogHandler {
        KeywayLogHandler(label: label, fileDescriptor: 2, format: format)
    }

    init(label: String, fileDescriptor: Int32, format: Format = .text) {
        self.label = label
        self.fileDescriptor = fileDescriptor
        self.format = format
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = event.metadata.map { metadata.merging($0) { _, new in new } } ?? metadata
        var line =
            switch format {
            case .text:
                Self.line(
                    time: Date(), level: event.level, label: label, source: event.source, message: "\(event.message)",
                    metadata: merged)
            case .json:
                Self.jsonLine(
                    time: Date(), level: event.level, label: label, source: event.source, message: "\(event.message)",
                    metadata: merged)
            }
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// The text of one line, newline included.
    static func line(
        time: Date, level: Logger.Level, label: String, source: String, message: String, metadata: Logger.Metadata
    ) -> String {
        var line = Timestamps.shared.text(for: time)
        line += " \(level) \(label): [\(source)] \(message)"
        if !metadata.isEmpty {
            for key in metadata.keys.sorted() {
                line += " \(key)=\(metadata[key]!)"
            }
        }
        line += "\n"
        return line
    }

    /// One JSON object and a newline: the fixed members, then the metadata sorted by key.
    static func jsonLine(
        time: Date, level: Logger.Level, label: String, source: String, message: String, metadata: Logger.Metadata
    ) -> String {
        let fixed = ["time", "level", "label", "source", "message"]
        var members = [
            ("time", Timestamps.shared.text(for: time)), ("level", "\(level)"), ("label", label), ("source", source),
            ("message", message),
        ]
        for key in metadata.keys.sorted() {
            members.append((fixed.contains(key) ? "meta_\(key)" : key, "\(metadata[key]!)"))
        }
        return "{" + members.map { "\(jsonString($0.0)):\(jsonString($0.1))" }.joined(separator: ",") + "}\n"
    }

    /// `text` as a JSON string literal (RFC 8259 §7).
    static func jsonString(_ text: String) -> String {
        JSONValue.string(text).serialized()
    }

    /// The ISO 8601 text of the current second, cached.
    final class Timestamps: Sendable {
        static let shared = Timestamps()
        private let cache = Locked<(second: Int64, text: String)>((.min, ""))

        func text(for time: Date) -> String {
            let second = Int64(time.timeIntervalSince1970.rounded(.down))
            if let cached = cache.withLock({ $0.second == second ? $0.text : nil }) { return cached }
            var seconds = time_t(second)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let text =
                "\(parts.tm_year + 1900)-\(Self.two(parts.tm_mon + 1))-\(Self.two(parts.tm_mday))T\(Self.two(parts.tm_hour)):\(Self.two(parts.tm_min)):\(Self.two(parts.tm_sec))Z"
            cache.withLock { $0 = (second, text) }
            return text
        }

        private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    }
}
