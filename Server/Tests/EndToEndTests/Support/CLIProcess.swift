import Foundation
import KeywayServer
import KeywayTestSupport

/// The built `keyway` CLI (or another executable of the package), run as a child process with
/// piped standard streams. A long-running one (the example backend) is a ``ScopedTestServer``:
/// ``stop()`` sends SIGTERM, which it answers with a graceful shutdown, and waits for the exit.
final class CLIProcess: ScopedTestServer, Sendable {
    private let process: ChildProcess

    /// The `keyway` executable next to the test bundle in the build folder.
    static var executable: URL {
        get throws { try executable(named: "keyway") }
    }

    /// An executable of the package next to the test bundle in the build folder.
    static func executable(named name: String) throws -> URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On macOS the test bundle is a folder: …/debug/X.xctest/Contents/MacOS/X.
        while directory.pathComponents.count > 1,
            !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path)
        {
            if directory.lastPathComponent == "debug" || directory.lastPathComponent == "release" { break }
            directory.deleteLastPathComponent()
        }
        let candidate = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw TestFailure("\(name) was not found at \(candidate.path); build the package first.")
        }
        return candidate
    }

    init(arguments: [String], environment: [String: String] = [:], executable: String = "keyway") throws {
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "KEYWAY_CONFIG_ID")
        // Each run keeps its session in a folder of its own unless the test shares one.
        merged["KEYWAY_HOME"] = TestFiles.directory
            .appendingPathComponent("keyway-cli-\(UUID().uuidString)").path
        // As patient as the tests' own SDK clients (`URLSessionTransport.patient`): a busy or
        // paused machine must not decide a test by the CLI's default 30 s.
        merged["KEYWAY_REQUEST_TIMEOUT"] = "120"
        for (key, value) in environment { merged[key] = value }
        process = try ChildProcess(
            executable: try Self.executable(named: executable).path, arguments: arguments, environment: merged)
    }

    /// Everything written to standard output so far.
    var standardOutput: String { String(decoding: process.standardOutput, as: UTF8.self) }

    /// The exit status, once the process has exited.
    var exitStatus: Int32? { process.exitStatus }

    /// Everything written to standard error so far.
    var standardError: String { String(decoding: process.standardError, as: UTF8.self) }

    /// Types `line` and a newline at the CLI's standard input.
    func type(_ line: String) {
        process.write(Data((line + "\n").utf8))
    }

    /// Closes standard input (end of input).
    func closeInput() {
        process.closeInput()
    }

    /// Stops the process.
    func terminate() {
        process.terminate()
    }

    /// Sends SIGTERM and waits for the process to exit (killing it after 30 seconds).
    func stop() async {
        process.terminate()
        _ = await process.waitForExit(timeout: .seconds(30))
    }

    /// Waits until standard output contains `text`.
    func waitForOutput(containing text: String, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !standardOutput.contains(text) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw TestFailure("The process never printed \"\(text)\". Standard error:\n\(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until standard error contains `text`.
    func waitForError(containing text: String, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            if standardError.contains(text) { return }
            if !process.isRunning {
                // Give the readers a moment to drain the pipes.
                try await Task.sleep(for: .milliseconds(50))
                if standardError.contains(text) { return }
                throw TestFailure("The CLI exited without printing \"\(text)\". Standard error:\n\(standardError)")
            }
            guard ContinuousClock.now < deadline else {
                throw TestFailure("The CLI never printed \"\(text)\". Standard error:\n\(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until standard error contains `text` after the last `marker` (a prompt printed again
    /// after a message), and answers what was printed after the marker.
    @discardableResult
    func waitForError(containing text: String, after marker: String, timeout: Duration = .seconds(60)) async throws
        -> String
    {
        let deadline = ContinuousClock.now + timeout
        while true {
            let errors = standardError
            if let range = errors.range(of: marker, options: .backwards) {
                let tail = String(errors[range.upperBound...])
                if tail.contains(text) { return tail }
            }
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw TestFailure("The CLI never printed \"\(text)\" after \"\(marker)\". Standard error:\n\(errors)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The backtraces of every thread of the running process (gdb, where installed): the evidence
    /// a test keeps when the process does not stop in time.
    func threadBacktraces() async -> String {
        guard process.isRunning else { return "(the process has exited)" }
        // Through a file: the backtraces are whole when gdb has exited (a pipe may still be
        // being read then), and gdb's own complaints (attaching refused) are kept with them.
        let file = "/tmp/keyway-backtraces-\(process.pid).txt"
        let command = "gdb -p \(process.pid) -batch -ex 'thread apply all bt 30' > \(file) 2>&1; echo \"gdb exited $?\" >> \(file)"
        guard (try? await ChildProcess.run("bash", ["-c", command], timeout: .seconds(120))) != nil,
            let text = try? String(contentsOfFile: file, encoding: .utf8)
        else { return "(gdb could not be run)" }
        try? FileManager.default.removeItem(atPath: file)
        return text
    }

    /// Kills the process (SIGKILL).
    func kill() {
        process.terminate(signal: SIGKILL)
    }

    /// Waits for the process to exit and returns its exit status; past `timeout` it is killed,
    /// unless `killing` is `false` (a test that takes its ``threadBacktraces()`` first).
    /// The timeout is generous: on a machine busy with other tests a process may take long to start.
    func waitForExit(timeout: Duration = .seconds(120), killing: Bool = true) async throws -> Int32 {
        guard let status = await process.waitForExit(timeout: timeout, killing: killing) else {
            throw TestFailure("The CLI did not exit in time. Standard error:\n\(standardError)")
        }
        return status
    }
}
