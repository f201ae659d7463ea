import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// `keyway-server serve` as an operator starts it: where dev mode may listen, how the admin token
/// is given, and the permissions of the files that hold the server's keys.
@Suite("keyway-server serve: safe defaults")
struct ServeCommandTests {
    /// A fresh folder (not yet created) and the database URL of a file in it.
    static func temporaryFolder() -> (folder: String, database: String) {
        let folder = TestFiles.directory.appendingPathComponent("keyway-serve-\(UUID().uuidString)").path
        return (folder, "sqlite:\(folder)/keyway.sqlite")
    }

    /// Starts `keyway-server serve` with `arguments` and waits until it listens; answers its port.
    static func serve(_ arguments: [String], environment: [String: String] = [:]) async throws -> (CLIProcess, Int) {
        let process = try CLIProcess(arguments: ["serve", "--port", "0"] + arguments, environment: environment, executable: "keyway-server")
        return try await process.settingUp { process in
            try await process.waitForError(containing: "keyway-server listening on")
            let line = process.standardError.split(separator: "\n").first { $0.contains("keyway-server listening on") } ?? ""
            let port = try #require(line.firstMatch(of: /listening on .+:([0-9]+),/).flatMap { Int($0.output.1) })
            return (process, port)
        }
    }

    static func permissions(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func devModeRefusesToListenBeyondLoopbackUnlessForced() async throws {
        let (_, database) = Self.temporaryFolder()
        for host in ["0.0.0.0", "::", "192.0.2.10", "example.com"] {
            let refused = try CLIProcess(
                arguments: ["serve", "--host", host, "--port", "0", "--database", database], executable: "keyway-server")
            let status = try await refused.waitForExit()
            #expect(status != 0)
            #expect(refused.standardError.contains("--unsafe-dev-mode-on-network"), "\(host): \(refused.standardError)")
            #expect(!refused.standardError.contains("listening on"))
        }
        let (process, _) = try await Self.serve(["--host", "0.0.0.0", "--database", database, "--unsafe-dev-mode-on-network"])
        try await withTestServer(process) { process in
            #expect(process.standardError.contains("dev mode on 0.0.0.0"))
        }
        // Loopback needs no flag.
        let (loopback, _) = try await Self.serve(["--host", "127.0.0.1", "--database", database])
        await loopback.stop()
    }

    @Test func anAdminTokenOnTheCommandLineIsWarnedAboutAndAFileIsNot() async throws {
        let (folder, database) = Self.temporaryFolder()
        let token = "kad_" + String(repeating: "a1", count: 20)
        let (onCommandLine, port) = try await Self.serve(["--database", database, "--admin-token", token])
        try await withTestServer(onCommandLine) { process in
            #expect(process.standardError.contains("process list"))
            #expect(!process.standardError.contains(token))
            let listed = try await RawHTTPClient.send(
                method: "GET", host: "127.0.0.1", port: port, path: "/admin/applications",
                headers: ["Authorization": "Bearer \(token)"], body: nil)
            #expect(listed.status == 200)
        }

        let file = folder + "/admin-token"
        try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let (fromFile, filePort) = try await Self.serve(["--database", database, "--admin-token-file", file])
        try await withTestServer(fromFile) { process in
            #expect(!process.standardError.contains("process list"))
            let listed = try await RawHTTPClient.send(
                method: "GET", host: "127.0.0.1", port: filePort, path: "/admin/applications",
                headers: ["Authorization": "Bearer \(token)"], body: nil)
            #expect(listed.status == 200)
        }
    }

    @Test func appAttestRootsComeFromPEMFilesAndBadOnesStopTheStart() async throws {
        let (folder, database) = Self.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let missing = try CLIProcess(
            arguments: ["serve", "--port", "0", "--database", database, "--app-attest-root", folder + "/none.pem"],
            executable: "keyway-server")
        #expect(try await missing.waitForExit() != 0)
        #expect(missing.standardError.contains("--app-attest-root \(folder)/none.pem cannot be read"))
        let garbage = folder + "/garbage.pem"
        try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: garbage))
        let refused = try CLIProcess(
            arguments: ["serve", "--port", "0", "--database", database, "--app-attest-root", garbage],
            executable: "keyway-server")
        #expect(try await refused.waitForExit() != 0)
        #expect(refused.standardError.contains("App Attest root 1 is not a PEM certificate"))
        let root = folder + "/root.pem"
        try Data(try TestAppAttestAuthority().rootPEM.utf8).write(to: URL(fileURLWithPath: root))
        let (started, _) = try await Self.serve(["--database", database, "--app-attest-root", root])
        await started.stop()
    }

    /// `config check` makes every check start-up makes before it opens the database, with the
    /// same sentence: what it approves, `serve` accepts.
    @Test func configCheckRefusesWhatServeRefuses() async throws {
        let (folder, database) = Self.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let notExecutable = folder + "/deliver.sh"
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: notExecutable))
        let production = ["--production", "--database", database]
        let key = ["KEYWAY_MASTER_KEY": TestServer.masterKey.text]
        let cases: [(String, [String], [String: String], String)] = [
            ("no delivery channel", production, key, "need a delivery channel"),
            ("a delivery command that is not executable", production + ["--delivery-command", notExecutable], key, "is not an executable file"),
            ("a short admin token", ["--database", database], ["KEYWAY_ADMIN_TOKEN": "short-token"], "at least 32 characters"),
            ("no master key", production + ["--delivery-command", "/bin/true"], [:], "production mode needs one"),
            ("a trusted proxy that is not an address", ["--database", database, "--trusted-proxies", "10.0.0.0/8,proxy.internal"], [:], "proxy.internal"),
            ("a sweep interval of none", ["--database", database, "--sweep-interval-seconds", "0"], [:], "--sweep-interval-seconds must be between 1 and 86400."),
        ]
        for (what, arguments, environment, sentence) in cases {
            let check = try CLIProcess(arguments: ["config", "check"] + arguments, environment: environment, executable: "keyway-server")
            // 1 for a setting start-up refuses, 64 (a usage error) for an option that does not parse.
            #expect(try await check.waitForExit() != 0, "config check approved \(what)")
            #expect(check.standardError.contains(sentence), "\(what): \(check.standardError)")
            let serve = try CLIProcess(arguments: ["serve", "--port", "0"] + arguments, environment: environment, executable: "keyway-server")
            #expect(try await serve.waitForExit() != 0, "serve accepted \(what)")
            #expect(serve.standardError.contains(sentence), "\(what): \(serve.standardError)")
        }
        // Fixed, both accept it.
        let fixed = try CLIProcess(
            arguments: ["config", "check"] + production + ["--delivery-command", "/bin/true"], environment: key, executable: "keyway-server")
        #expect(try await fixed.waitForExit() == 0, "\(fixed.standardError)")
    }

    /// Production behind a TLS-terminating proxy needs the public https issuer: a plain-http one
    /// that is not loopback is a warning at start; https or loopback is not.
    @Test func productionWarnsOfAPlainHTTPIssuer() async throws {
        let key = ["KEYWAY_MASTER_KEY": TestServer.masterKey.text]
        for (issuer, warns) in [("http://auth.example.com", true), ("https://auth.example.com", false), ("http://127.0.0.1:8080", false)] {
            let (_, database) = Self.temporaryFolder()
            let (process, _) = try await Self.serve(
                ["--production", "--database", database, "--delivery-command", "/bin/true", "--issuer", issuer], environment: key)
            #expect(process.standardError.contains("plain-http issuer") == warns, "\(issuer): \(process.standardError)")
            await process.stop()
        }
    }

    @Test func settingsComeFromOptionsThenEnvironmentThenTheConfigFile() async throws {
        let (folder, database) = Self.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/keyway.json"
        try JSONSerialization.data(withJSONObject: [
            "port": 9191, "logFormat": "json", "maxChecksPerAddress": 12,
            "database": "postgres://kw:hunter2@db.example.com/keyway?sslmode=require",
        ]).write(to: URL(fileURLWithPath: file))
        let check = try CLIProcess(
            arguments: ["config", "check", "--config", file, "--max-checks-per-address", "7"],
            environment: ["KEYWAY_PORT": "9292", "KEYWAY_LOG_LEVEL": "debug"], executable: "keyway-server")
        #expect(try await check.waitForExit() == 0, "\(check.standardError)")
        let shown = try #require(try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any])
        #expect(shown["port"] as? Int == 9292, "the environment wins over the file")
        #expect(shown["maxChecksPerAddress"] as? Int == 7, "an option wins over the file")
        #expect(shown["logFormat"] as? String == "json")
        #expect(shown["logLevel"] as? String == "debug")
        #expect(shown["database"] as? String == "postgres://kw:********@db.example.com:5432/keyway?sslmode=require")
        #expect(shown["trustedProxies"] as? [String] == [] && shown["migrateOnStart"] as? Bool == true)
        #expect(!check.standardOutput.contains("hunter2"))

        // A misspelt setting, or one of the wrong type, is refused by name.
        try Data(#"{"prot": 1}"#.utf8).write(to: URL(fileURLWithPath: file))
        let misspelt = try CLIProcess(arguments: ["config", "check", "--config", file], executable: "keyway-server")
        #expect(try await misspelt.waitForExit() != 0)
        #expect(misspelt.standardError.contains(#"unknown setting "prot""#), "\(misspelt.standardError)")
        try Data(#"{"port": "eighty"}"#.utf8).write(to: URL(fileURLWithPath: file))
        let wrongType = try CLIProcess(arguments: ["config", "check", "--config", file], executable: "keyway-server")
        #expect(try await wrongType.waitForExit() != 0)
        #expect(wrongType.standardError.contains("port"), "\(wrongType.standardError)")

        // serve runs with the file's settings.
        try JSONSerialization.data(withJSONObject: ["database": database, "logFormat": "json"])
            .write(to: URL(fileURLWithPath: file))
        let (served, port) = try await Self.serve(["--config", file])
        try await withTestServer(served) { process in
            let health = try await RawHTTPClient.send(
                method: "GET", host: "127.0.0.1", port: port, path: "/health/ready", headers: [:], body: nil)
            #expect(health.status == 200)
            let line = try #require(process.standardError.split(separator: "\n").first { $0.contains("listening on") })
            #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "\(line)")
        }
    }

    @Test func theDatabaseAndItsFolderAreReadableByTheOwnerOnly() async throws {
        let (folder, database) = Self.temporaryFolder()
        let path = folder + "/keyway.sqlite"
        let (process, _) = try await Self.serve(["--database", database])
        try await withTestServer(process) { _ throws in
            #expect(try Self.permissions(folder) == 0o700)
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(try Self.permissions(file) == 0o600, "\(file)")
            }
        }
        // A file an older version left readable by others is narrowed on the next start.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let (restarted, _) = try await Self.serve(["--database", database])
        try await withTestServer(restarted) { _ throws in
            #expect(try Self.permissions(path) == 0o600)
        }
    }
}
