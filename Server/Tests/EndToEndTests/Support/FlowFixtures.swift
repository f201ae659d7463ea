import Foundation
@testable import Keyway
import KeywayServer
import KeywayTestSupport

/// Flows left in flight by an earlier release, kept to check that a new release finishes them:
/// a SQL dump of the server's database (`database.sql`) and what each client held (`manifest.json`).
/// `FlowFixtureRecorder` writes them; `FlowUpgradeTests` reads them.
struct FlowFixtureManifest: Codable, Sendable {
    /// The server clock when the recording ended, in seconds since 1970.
    var recordedAt: Double
    var flows: [RecordedFlow]
}

/// One client's flow, stopped at a step.
struct RecordedFlow: Codable, Sendable {
    /// The scenario's name.
    var name: String
    /// The identifier the flow was started with.
    var identifier: String
    /// The kind of the step the flow rests at.
    var stepKind: String
    /// The client's secure storage (the saved flow, device keys), base64 by key.
    var storage: [String: String]
    /// Values the client knew (the code it was sent, the password, the authenticator secret).
    var values: [String: String]
}

enum FlowFixtures {
    /// The folder of a fixture set, such as `flows-v0`.
    static func folder(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    static func manifest(_ name: String) throws -> FlowFixtureManifest {
        let data = try Data(contentsOf: folder(name).appendingPathComponent("manifest.json"))
        return try JSONDecoder().decode(FlowFixtureManifest.self, from: data)
    }

    /// Writes a new database file from the fixture's SQL dump, with an independent SQLite client.
    static func restoreDatabase(_ name: String, to path: String) async throws {
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        let dump = folder(name).appendingPathComponent("database.sql").path
        let result = try await ChildProcess.run(
            "python3",
            [
                "-c",
                "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.commit()",
                path, dump,
            ])
        guard result.status == 0 else {
            throw TestFailure("The fixture database could not be restored: \(String(decoding: result.errors, as: UTF8.self))")
        }
    }

    /// Dumps a database file as SQL, with an independent SQLite client.
    static func dumpDatabase(_ path: String) async throws -> String {
        let result = try await ChildProcess.run(
            "python3",
            ["-c", "import sqlite3, sys; print('\\n'.join(sqlite3.connect(sys.argv[1]).iterdump()))", path])
        guard result.status == 0 else {
            throw TestFailure("The database could not be dumped: \(String(decoding: result.errors, as: UTF8.self))")
        }
        return String(decoding: result.output, as: UTF8.self)
    }

    /// A client storage holding what the recorded client held, its saved flow pointed at the
    /// server on `port` (the recording server listened on another one).
    static func storage(of flow: RecordedFlow, port: Int) async throws -> InMemorySecureStorage {
        let storage = InMemorySecureStorage()
        for (key, value) in flow.storage {
            guard var data = Data(base64Encoded: value) else { throw TestFailure("Bad fixture storage \(key).") }
            if key.hasPrefix("keyway.flow."), var saved = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let server = saved["server"] as? String
            {
                saved["server"] = server.replacingOccurrences(
                    of: #"127\.0\.0\.1:[0-9]+"#, with: "127.0.0.1:\(port)", options: .regularExpression)
                data = try JSONSerialization.data(withJSONObject: saved)
            }
            try await storage.write(key: key, data: data)
        }
        return storage
    }
}
