import Foundation
import Testing

/// Every Swift snippet of README.md and docs/*.md is a file of this target (written by
/// `scripts/doc-snippets`), so building the tests compiles them against the code; this test fails
/// when a doc changed without its snippets being written again.
@Suite("Documentation snippets")
struct DocSnippetTests {
    @Test func theCompiledSnippetsAreTheDocsOwn() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("scripts/doc-snippets").path, "--check"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
    }
}
