import Foundation

/// The built `keyway` CLI, run as a child process with piped standard streams.
final class CLIProcess: @unchecked Sendable {
    // @unchecked: `process` and the pipes are set up in `init` and only read afterwards;
    // the collected output lives behind `lock`.
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var stdoutData = Data()
    private var stderrData = Data()

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
        process.executableURL = try Self.executable(named: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged.removeValue(forKey: "KEYWAY_CONFIG_ID")
        // Each run keeps its session in a folder of its own unless the test shares one.
        merged["KEYWAY_HOME"] = FileManager.default.temporaryDirectory
            .appendingPathComponent("keyway-cli-\(UUID().uuidString)").path
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.withLock { self.stdoutData.append(chunk) }
        }
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.withLock { self.stderrData.append(chunk) }
        }
        try process.run()
    }

    /// Everything written to standard output so far.
    var standardOutput: String { lock.withLock { String(decoding: stdoutData, as: UTF8.self) } }

    /// The exit status, once the process has exited.
    var exitStatus: Int32? { process.isRunning ? nil : process.terminationStatus }

    /// Everything written to standard error so far.
    var standardError: String { lock.withLock { String(decoding: stderrData, as: UTF8.self) } }

    /// Types `line` and a newline at the CLI's standard input.
    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes standard input (end of input).
    func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    /// Stops the process.
    func terminate() {
        if process.isRunning { process.terminate() }
    }

    /// Waits until standard output contains `text`.
    func waitForOutput(containing text: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !standardOutput.contains(text) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                throw TestFailure("The process never printed \"\(text)\". Standard error:\n\(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until standard error contains `text`.
    func waitForError(containing text: String, timeout: Duration = .seconds(20)) async throws {
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

    /// Waits for the process to exit and returns its exit status.
    func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw TestFailure("The CLI did not exit in time. Standard error:\n\(standardError)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Drain whatever is left in the pipes.
        try await Task.sleep(for: .milliseconds(50))
        output.fileHandleForReading.readabilityHandler = nil
        errors.fileHandleForReading.readabilityHandler = nil
        let restOut = (try? output.fileHandleForReading.readToEnd()) ?? nil
        let restErr = (try? errors.fileHandleForReading.readToEnd()) ?? nil
        lock.withLock {
            if let restOut { stdoutData.append(restOut) }
            if let restErr { stderrData.append(restErr) }
        }
        return process.terminationStatus
    }
}
