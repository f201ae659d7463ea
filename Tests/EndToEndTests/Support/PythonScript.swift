import Foundation

/// Runs a script of `Tests/Interop` with python3, as an independent peer of the code under test.
enum PythonScript {
    /// The repository root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `Tests/Interop/NAME` with `arguments` (and `input` on standard input) and returns its
    /// exit status and standard output (with standard error unless `separateErrors`).
    static func run(_ name: String, _ arguments: [String], input: Data? = nil, separateErrors: Bool = false)
        async throws -> (status: Int32, output: String)
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyway-python-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let outputURL = directory.appendingPathComponent("output.txt")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("Tests/Interop/\(name)").path] + arguments
        if let input {
            let inputURL = directory.appendingPathComponent("input")
            try input.write(to: inputURL)
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
        }
        let output = try FileHandle(forWritingTo: outputURL)
        process.standardOutput = output
        process.standardError = separateErrors ? FileHandle.standardError : output
        // Wait without blocking a cooperative thread: the server under test needs them.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume()
            }
        }
        try output.close()
        return (process.terminationStatus, (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "")
    }
}
