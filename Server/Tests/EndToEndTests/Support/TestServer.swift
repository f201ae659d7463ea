import Foundation
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Logging


/// A real `keyway-server` running in-process on an ephemeral loopback port with a temporary
/// SQLite file. Run it with ``withTestServer(_:isolation:_:)``, which stops it gracefully.
final class TestServer: ScopedTestServer, Sendable {
    static let configId = "cfg_e2e"

    let app: KeywayServerApp
    let port: Int
    let databasePath: String
    let logs: LogCapture
    private let task: Task<Void, any Error>

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private init(app: KeywayServerApp, port: Int, databasePath: String, logs: LogCapture, task: Task<Void, any Error>) {
        self.app = app
        self.port = port
        self.databasePath = databasePath
        self.logs = logs
        self.task = task
    }

    /// A fresh temporary database path.
    static func temporaryDatabase() -> String {
        TestFiles.directory
            .appendingPathComponent("keyway-e2e-\(UUID().uuidString)")
            .appendingPathComponent("keyway.sqlite").path
    }

    /// Starts a server; `port: 0` picks a free port. The idle timeout is long by default: on a
    /// loaded machine an accepted connection can wait many seconds before the server reads it,
    /// and the tests check behaviour, not the timeout (the slow-client tests set a short one).
    static func start(
        databasePath: String = temporaryDatabase(), port: Int = 0, clock: ManualClock, logs: LogCapture = LogCapture(),
        deliveryCommand: String? = nil, limits: FlowLimits = FlowLimits(), adminToken: String? = nil,
        passwords: (any PasswordHashing)? = nil, idleTimeout: TimeInterval = 300, appAttestRoots: [String] = []
    ) async throws -> TestServer {
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: port, database: .sqlite(path: databasePath), devMode: deliveryCommand == nil,
            devConfigId: deliveryCommand == nil ? configId : nil, deliveryCommand: deliveryCommand, clock: clock,
            limits: limits, adminToken: adminToken)
        // A lower scrypt cost than production: the tests check behaviour, not the work factor.
        configuration.passwordHashing = ScryptPasswords(log2Cost: 12)
        configuration.customPasswordHashing = passwords
        configuration.idleTimeout = idleTimeout
        configuration.appAttestRoots = appAttestRoots
        let app = try await KeywayServerApp.bootstrap(configuration: configuration, logger: logs.logger())
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = Task {
            defer { continuation.finish() }
            try await app.run { address in
                continuation.yield(address.port)
                continuation.finish()
            }
        }
        var iterator = stream.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            // The server stopped before binding: report why.
            try await task.value
            throw TestFailure("The server stopped before it was listening.")
        }
        return TestServer(app: app, port: bound, databasePath: databasePath, logs: logs, task: task)
    }

    /// Shuts the server down gracefully and waits until it has closed its database.
    func stop() async {
        await app.shutDown()
        _ = try? await task.value
    }

    /// The dev outbox's messages to `email`.
    func outbox(to email: String) async throws -> [OutboxMessage] {
        let query = email.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? email
        let response = try await request("GET", "/dev/outbox?to=\(query)")
        return try WireCoding.makeDecoder().decode(OutboxListing.self, from: response.body).messages
    }

    /// The latest code sent to `email`.
    func latestCode(to email: String) async throws -> String {
        guard let code = try await outbox(to: email).last?.code else {
            throw TestFailure("No message was sent to \(email).")
        }
        return code
    }

    /// A raw HTTP request to the server, from `source` (another loopback address plays another
    /// client; 127.0.0.1 by default).
    func request(
        _ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil, from source: String? = nil
    ) async throws -> (status: Int, headers: [String: String], body: Data) {
        let response = try await RawHTTPClient.send(
            method: method, host: "127.0.0.1", port: port, path: path, headers: headers, body: body, source: source)
        return (response.status, response.headers, response.body)
    }

    /// Posts a form to the token endpoint.
    func token(_ form: [String: String], headers: [String: String] = [:]) async throws -> (status: Int, json: [String: Any]) {
        try await self.form("/oauth2/token", form, headers: headers)
    }

    /// Posts a form to an OAuth endpoint.
    func form(_ path: String, _ form: [String: String], headers: [String: String] = [:]) async throws
        -> (status: Int, json: [String: Any])
    {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
            .joined(separator: "&")
        var all = headers
        all["Content-Type"] = "application/x-www-form-urlencoded"
        let response = try await request("POST", path, headers: all, body: Data(body.utf8))
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, json)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension TestServer {
    /// The number of rows of a table, read from the database file by an independent SQLite client.
    /// Runs one SQL statement on the database file with an independent SQLite client.
    func execute(_ statement: String) async throws {
        let result = try await ChildProcess.run(
            "python3",
            [
                "-c",
                "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
                databasePath, statement,
            ])
        guard result.status == 0 else {
            throw TestFailure("The statement failed: \(String(decoding: result.errors, as: UTF8.self))")
        }
    }

    func rowCount(_ table: String) async throws -> Int {
        let result = try await ChildProcess.run(
            "python3",
            [
                "-c",
                "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM ' + sys.argv[2]).fetchone()[0])",
                databasePath, table,
            ])
        guard result.status == 0,
            let count = Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw TestFailure("Could not count the rows of \(table).") }
        return count
    }
}
