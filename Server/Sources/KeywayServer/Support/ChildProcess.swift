#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

#if canImport(Darwin)
    /// On Darwin the spawn types are opaque pointers that their `_init` functions allocate.
    private typealias SpawnFileActions = posix_spawn_file_actions_t?
    private typealias SpawnAttributes = posix_spawnattr_t?
#else
    private typealias SpawnFileActions = posix_spawn_file_actions_t
    private typealias SpawnAttributes = posix_spawnattr_t
#endif

/// A child process started with `posix_spawn`, its standard streams on pipes.
///
/// Foundation's `Process` is avoided on purpose: on Linux its `run()` can crash while it lists
/// `/proc/self/fd`. This type spawns directly, keeps every pipe end out of other children (the
/// pipes are close-on-exec, created and spawned under one lock, and the child closes every
/// descriptor above standard error), collects output on threads of its own, and reaps the child
/// with `waitpid` on a thread of its own, so it never blocks Swift's cooperative pool.
package final class ChildProcess: @unchecked Sendable {
    // @unchecked: the mutable state (output, exit status, the input descriptor) lives behind `lock`.
    /// The child's process ID.
    package let pid: pid_t
    private let lock = NSLock()
    private var inputDescriptor: Int32?
    private var collected: [Data] = [Data(), Data()]
    private var openStreams = 2
    private var status: Int32?

    /// Serializes pipe creation and spawning, so no child inherits another child's pipe end on a
    /// platform where close-on-exec has to be set after the pipe exists.
    private static let spawnLock = NSLock()

    /// Why a child could not be started.
    package struct SpawnFailure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments` and
    /// `environment` (the whole environment of the child; `nil` inherits this process's).
    package init(executable: String, arguments: [String], environment: [String: String]? = nil) throws {
        let (childIn, parentIn, childOut, parentOut, childErr, parentErr, pid) = try Self.spawnLock.withLock {
            let input = try Self.makePipe()
            let output = try Self.makePipe()
            let errors = try Self.makePipe()
            var actions = SpawnFileActions()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, input.read, 0)
            posix_spawn_file_actions_adddup2(&actions, output.write, 1)
            posix_spawn_file_actions_adddup2(&actions, errors.write, 2)
            Self.addCloseFrom(&actions, 3)
            var attributes = SpawnAttributes()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            sigaddset(&defaults, SIGPIPE)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            #if canImport(Darwin)
                // Darwin closes every other descriptor in the child itself.
                posix_spawnattr_setflags(
                    &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_CLOEXEC_DEFAULT))
            #else
                posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            #endif

            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let env = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                argv.forEach { free($0) }
                env.forEach { free($0) }
            }
            var pid: pid_t = 0
            let result = posix_spawnp(&pid, executable, &actions, &attributes, argv, env)
            guard result == 0 else {
                for fd in [input.read, input.write, output.read, output.write, errors.read, errors.write] { close(fd) }
                throw SpawnFailure(description: "Could not start \(executable): \(String(cString: strerror(result))).")
            }
            return (input.read, input.write, output.write, output.read, errors.write, errors.read, pid)
        }
        close(childIn)
        close(childOut)
        close(childErr)
        self.pid = pid
        self.inputDescriptor = parentIn
        startReader(parentOut, stream: 0)
        startReader(parentErr, stream: 1)
        let thread = Thread { [self] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
            let code = Self.exitCode(raw)
            lock.withLock { status = code }
        }
        thread.start()
    }

    deinit {
        if let inputDescriptor { close(inputDescriptor) }
    }

    /// Everything the child wrote to standard output so far.
    package var standardOutput: Data { lock.withLock { collected[0] } }

    /// Everything the child wrote to standard error so far.
    package var standardError: Data { lock.withLock { collected[1] } }

    /// The exit status (or 128 + the signal number) once the child has exited.
    package var exitStatus: Int32? { lock.withLock { status } }

    /// Whether the child is still running.
    package var isRunning: Bool { exitStatus == nil }

    /// Writes `data` to the child's standard input.
    package func write(_ data: Data) {
        guard let fd = lock.withLock({ inputDescriptor }) else { return }
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }

    /// Closes the child's standard input (end of input).
    package func closeInput() {
        let fd: Int32? = lock.withLock {
            defer { inputDescriptor = nil }
            return inputDescriptor
        }
        if let fd { close(fd) }
    }

    /// Sends `signal` (SIGTERM by default) to the child if it is still running.
    package func terminate(signal: Int32 = SIGTERM) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits until the child has exited and both output streams reached their end; returns the
    /// exit status, or `nil` if `timeout` passed first (the child is then killed, unless
    /// `killing` is `false`: a caller that wants to look at it first — its threads — kills it
    /// itself).
    package func waitForExit(timeout: Duration, killing: Bool = true) async -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (code, streams) = lock.withLock { (status, openStreams) }
            if let code, streams == 0 { return code }
            if ContinuousClock.now >= deadline {
                if killing { terminate(signal: SIGKILL) }
                return nil
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Runs `executable` to completion with `input` on its standard input.
    package static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> (status: Int32, output: Data, errors: Data) {
        let child = try ChildProcess(executable: executable, arguments: arguments, environment: environment)
        if let input { child.write(input) }
        child.closeInput()
        guard let status = await child.waitForExit(timeout: timeout) else {
            throw SpawnFailure(description: "\(executable) did not finish within \(timeout).")
        }
        return (status, child.standardOutput, child.standardError)
    }

    private func startReader(_ fd: Int32, stream: Int) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 16_384)
            while true {
                let count = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let chunk = Data(buffer[0..<count])
                lock.withLock { collected[stream].append(chunk) }
            }
            close(fd)
            lock.withLock { openStreams -= 1 }
        }
        thread.start()
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw SpawnFailure(description: "Could not create a pipe: \(String(cString: strerror(errno))).")
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // The parent's ends are never blocked on a full pipe by a child that stopped reading.
        signal(SIGPIPE, SIG_IGN)
        return (fds[0], fds[1])
    }

    /// Adds "close every descriptor from `lowest` up" where the C library offers it (glibc 2.34+).
    private static func addCloseFrom(_ actions: inout SpawnFileActions, _ lowest: Int32) {
        #if os(Linux)
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return }
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        _ = closeFrom(&actions, lowest)
        #endif
    }

    private static func exitCode(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }
}

/// `read(2)` and `write(2)`, under names the type's own `write(_:)` does not shadow.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
