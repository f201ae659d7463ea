import Foundation
import _CryptoExtras
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Logging


/// A real `keyway-server` running in-process on an ephemeral loopback port with a fresh
/// database: a temporary SQLite file, or a new PostgreSQL database when the tests run on
/// PostgreSQL (``TestDatabase``). Run it with ``withTestServer(_:isolation:_:)``, which stops it
/// gracefully.
final class TestServer: ScopedTestServer, Sendable {
    static let configId = "cfg_e2e"
    /// The master key of every test server (so a restarted one opens its predecessor's secrets).
    static let masterKey = MasterKey.generate()
    /// One RSA key for the first `RS256` key of every test server of the process: a 2048-bit
    /// prime search takes about half a second of a debug build's CPU, and hundreds of servers
    /// start in a run (rotation still makes new keys).
    static let firstRS256Key: Data = {
        do {
            return try _RSA.Signing.PrivateKey(keySize: .bits2048).derRepresentation
        } catch {
            fatalError("No RSA key could be made: \(error)")
        }
    }()

    let app: KeywayServerApp
    let port: Int
    /// The server's database: start another server on it to play a restart or a second instance.
    let database: DatabaseLocation
    let logs: LogCapture
    /// The server's clock.
    let clock: ManualClock
    private let task: Task<Void, any Error>

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// The SQLite file, for the tests of what the file holds; `nil` on PostgreSQL.
    var databaseFile: String? {
        if case .sqlite(let path) = database { return path }
        return nil
    }

    private init(
        app: KeywayServerApp, port: Int, database: DatabaseLocation, logs: LogCapture, clock: ManualClock,
        task: Task<Void, any Error>
    ) {
        self.app = app
        self.clock = clock
        self.port = port
        self.database = database
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
        database: DatabaseLocation? = nil, port: Int = 0, clock: ManualClock, logs: LogCapture = LogCapture(),
        deliveryCommand: String? = nil, limits: FlowLimits = FlowLimits(), adminToken: String? = nil,
        passwords: (any PasswordHashing)? = nil, idleTimeout: TimeInterval = 300, appAttestRoots: [String] = [],
        smtp: SMTPRelayConfiguration? = nil, issuer: String? = nil, issuerHost: String? = nil,
        databasePoolSize: Int = 3, databaseLeaseTimeout: Duration = .seconds(60),
        databaseQueryTimeout: Duration = .seconds(60), trustedProxies: TrustedProxies = .none,
        metrics: MetricsExposure = MetricsExposure(onPublicListener: true),
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let database =
            if let database { database } else { try await TestDatabase.fresh() }
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: port, database: database, devMode: deliveryCommand == nil,
            devConfigId: deliveryCommand == nil ? configId : nil, deliveryCommand: deliveryCommand, clock: clock,
            limits: limits, adminToken: adminToken)
        // A lower scrypt cost than production: the tests check behaviour, not the work factor.
        configuration.passwordHashing = ScryptPasswords(log2Cost: 12)
        configuration.customPasswordHashing = passwords
        configuration.idleTimeout = idleTimeout
        configuration.appAttestRoots = appAttestRoots
        configuration.smtp = smtp
        configuration.issuer = issuer
        configuration.issuerHost = issuerHost
        // Many test servers run at once on one PostgreSQL server: a small pool each.
        configuration.databasePoolSize = databasePoolSize
        // The machine is shared by many test servers: a request may wait long for a connection
        // without anything being wrong (the tests of the deadline set a short one).
        configuration.databaseLeaseTimeout = databaseLeaseTimeout
        configuration.databaseQueryTimeout = databaseQueryTimeout
        configuration.trustedProxies = trustedProxies
        // The metrics on the public listener (to the admin token), unless a test chooses.
        configuration.metrics = metrics
        configuration.masterKey = masterKey
        configuration.firstRS256Key = firstRS256Key
        configure(&configuration)
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
        return TestServer(app: app, port: bound, database: database, logs: logs, clock: clock, task: task)
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
    /// Runs one SQL statement on the database with an independent client: Python's `sqlite3` on
    /// a SQLite file, `psql` on PostgreSQL.
    func execute(_ statement: String) async throws {
        let result =
            switch database {
            case .sqlite(let path):
                try await ChildProcess.run(
                    "python3",
                    [
                        "-c",
                        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
                        path, statement,
                    ])
            case .postgres(let location):
                try await ChildProcess.run("psql", [Self.psqlURL(location), "-v", "ON_ERROR_STOP=1", "-qc", statement])
            }
        guard result.status == 0 else {
            throw TestFailure("The statement failed: \(String(decoding: result.errors, as: UTF8.self))")
        }
    }

    /// The number of rows of a table (or of `table WHERE …`), read by an independent client.
    func rowCount(_ table: String) async throws -> Int {
        let result =
            switch database {
            case .sqlite(let path):
                try await ChildProcess.run(
                    "python3",
                    [
                        "-c",
                        "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM ' + sys.argv[2]).fetchone()[0])",
                        path, table,
                    ])
            case .postgres(let location):
                try await ChildProcess.run("psql", [Self.psqlURL(location), "-tAc", "SELECT COUNT(*) FROM " + table])
            }
        guard result.status == 0,
            let count = Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw TestFailure("Could not count the rows of \(table): \(String(decoding: result.errors, as: UTF8.self))")
        }
        return count
    }

    /// The URL `psql` reaches `location` with (its schema first on the search path).
    static func psqlURL(_ location: PostgresLocation) -> String {
        "postgres://\(location.username)@\(location.host):\(location.port)/\(location.database)?sslmode=disable"
            + (location.schema.map { "&options=-csearch_path%3D\($0)" } ?? "")
    }
}

extension FlowLimits {
    /// The default limits without the per-network throttle of failed PowerAuth signatures: the
    /// protocol's tests spend an activation's whole failure budget from one loopback address.
    static var unthrottledPowerAuth: FlowLimits {
        var limits = FlowLimits()
        limits.rateLimits.powerAuthFailuresPerActivation = 0
        limits.rateLimits.powerAuthFailuresPerAddress = 0
        return limits
    }
}
