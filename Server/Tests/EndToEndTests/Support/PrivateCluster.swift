import Foundation
import KeywayServer

/// A PostgreSQL cluster of one test's own — `scripts/postgres` on a port of its own — which the
/// test may stop and start again as an operator would (`pause`, `resume`), without touching the
/// cluster the other tests share.
struct PrivateCluster: Sendable {
    let port: Int
    /// The admin URL of the cluster's `postgres` database.
    let url: String

    /// Whether PostgreSQL's programs are here (as `scripts/postgres available` looks for them).
    static let available: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init)
            + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .map { "/usr/lib/postgresql/\($0)/bin" }
        return folders.contains { folder in
            ["pg_ctl", "initdb", "postgres"].allSatisfy { FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)") }
        }
    }()

    /// Starts a cluster on a free port (a few ports are tried: another run may hold one).
    static func start() async throws -> PrivateCluster {
        var last = ""
        for _ in 0..<5 {
            let port = Int.random(in: 26000..<29000)
            let (status, output, errors) = try await script("start", port: port)
            if status == 0 {
                return PrivateCluster(port: port, url: output.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            last = errors
        }
        throw TestFailure("No private PostgreSQL cluster could be started: \(last)")
    }

    /// Stops the cluster as `pg_ctl stop -m fast` does (every session ended, new connections
    /// refused), keeping its data.
    func pause() async throws { try await run("pause") }

    /// Starts the paused cluster again.
    func resume() async throws { try await run("resume") }

    /// Stops the cluster and removes its folder.
    func stop() async {
        _ = try? await Self.script("stop", port: port)
    }

    private func run(_ command: String) async throws {
        let (status, _, errors) = try await Self.script(command, port: port)
        guard status == 0 else { throw TestFailure("scripts/postgres \(command) failed: \(errors)") }
    }

    /// Runs `scripts/postgres COMMAND` for the cluster on `port`, in the default folder (never the
    /// shared cluster's evidence: its log variable is left out).
    private static func script(_ command: String, port: Int) async throws -> (Int32, String, String) {
        var environment = ProcessInfo.processInfo.environment
        environment["KEYWAY_TEST_POSTGRES_PORT"] = String(port)
        environment.removeValue(forKey: "KEYWAY_TEST_POSTGRES_DIR")
        environment.removeValue(forKey: "KEYWAY_TEST_POSTGRES_LOG")
        let script = PythonScript.root.deletingLastPathComponent().appendingPathComponent("scripts/postgres").path
        let result = try await ChildProcess.run("bash", [script, command], environment: environment, timeout: .seconds(120))
        return (
            result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.errors, as: UTF8.self)
        )
    }
}
