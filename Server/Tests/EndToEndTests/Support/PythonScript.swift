import Foundation
import KeywayServer

/// Runs a script of `Tests/Interop` with python3, as an independent peer of the code under test.
enum PythonScript {
    /// The server package's folder (`Server/`), found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `Tests/Interop/NAME` with `arguments` (and `input` on standard input) and returns its
    /// exit status and standard output (with standard error unless `separateErrors`); a script
    /// still running after `timeout` is killed.
    static func run(
        _ name: String, _ arguments: [String], input: Data? = nil, separateErrors: Bool = false,
        timeout: Duration = .seconds(60)
    ) async throws -> (status: Int32, output: String) {
        let result = try await ChildProcess.run(
            "python3", [root.appendingPathComponent("Tests/Interop/\(name)").path] + arguments, input: input,
            timeout: timeout)
        var output = String(decoding: result.output, as: UTF8.self)
        if separateErrors {
            FileHandle.standardError.write(result.errors)
        } else {
            output += String(decoding: result.errors, as: UTF8.self)
        }
        return (result.status, output)
    }
}
