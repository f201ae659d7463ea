import Foundation
import KeywayTestSupport
import Logging
import Testing

@testable import KeywayServer

@Suite("Server log handler")
struct LogHandlerTests {
    @Test func lineFormat() {
        let time = Date(timeIntervalSince1970: 1_795_000_000.75)
        let line = KeywayLogHandler.line(
            time: time, level: .info, label: "keyway", source: "KeywayServer", message: "POST /v1/flows 201 1.20ms",
            metadata: ["traceId": "abc", "a": "1"])
        #expect(line == "2026-11-18T11:06:40Z info keyway: [KeywayServer] POST /v1/flows 201 1.20ms a=1 traceId=abc\n")
    }

    @Test func jsonLinesAreOneObjectEachWithEscapesAndTheMetadata() throws {
        let time = Date(timeIntervalSince1970: 1_795_000_000.75)
        let line = KeywayLogHandler.jsonLine(
            time: time, level: .warning, label: "keyway", source: "KeywayServer",
            message: "a \"quoted\"\nmessage\u{1}", metadata: ["traceId": "abc", "message": "clash", "é": "ü"])
        #expect(line.hasSuffix("}\n") && !line.dropLast().contains("\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(
            object == [
                "time": "2026-11-18T11:06:40Z", "level": "warning", "label": "keyway", "source": "KeywayServer",
                "message": "a \"quoted\"\nmessage\u{1}", "traceId": "abc", "meta_message": "clash", "é": "ü",
            ])
    }

    @Test func timestampsFollowTheClock() {
        let stamps = KeywayLogHandler.Timestamps()
        #expect(stamps.text(for: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(stamps.text(for: Date(timeIntervalSince1970: 0.9)) == "1970-01-01T00:00:00Z")
        #expect(stamps.text(for: Date(timeIntervalSince1970: 86_399)) == "1970-01-01T23:59:59Z")
        #expect(stamps.text(for: Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    }

    @Test func writesWholeLinesToItsFile() throws {
        let path = TestFiles.directory.appendingPathComponent("keyway-log-\(UUID().uuidString)").path
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        #expect(descriptor >= 0)
        var logger = Logger(label: "keyway") { label in KeywayLogHandler(label: label, fileDescriptor: descriptor) }
        logger.logLevel = .notice
        logger.info("not written")
        logger.notice("written", metadata: ["k": "v"])
        close(descriptor)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix(" notice keyway: [KeywayServerTests] written k=v\n"))
        #expect(!text.contains("not written"))
    }
}
