import Foundation
import KeywayTestSupport
import Testing

/// The `keyway` CLI's activation and signing commands — the SDK's `KeywayPowerAuthClient` — over real
/// HTTP against the real keyway-server, and against the independent PowerAuth 3.3 server side
/// written in Python from the published documents (`Tests/Interop/keyway_activation_cli.py` on
/// `powerauth/reference_server.py`), which checks the client by the protocol rather than by
/// Keyway's own server code (offline signatures are checked there only).
@Suite("keyway activation and keyway sign against keyway-server and an independent PowerAuth server side")
struct ActivationCLIInteropTests {
    @Test func everyCommandAgainstTheReferenceServerSide() async throws {
        let scratch = TestFiles.directory.appendingPathComponent("activation-interop-\(UUID().uuidString)")
        let (status, output) = try await PythonScript.run(
            "keyway_activation_cli.py", [try CLIProcess.executable.path, scratch.path], timeout: .seconds(300))
        let report = output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(status == 0, "\(output)")
        #expect(report.contains("\"ok\": true"), "\(report)")
    }

    /// One CLI home (one machine) against `server`, with the application's PowerAuth JSON.
    struct Machine {
        let server: TestServer
        let environment: [String: String]
        let home: URL

        init(_ server: TestServer, configuration: URL) {
            self.server = server
            home = TestFiles.directory.appendingPathComponent("keyway-cli-pa-\(UUID().uuidString)")
            environment = [
                "KEYWAY_HOME": home.path, "KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_POWERAUTH_CONFIG": configuration.path,
            ]
        }

        /// Starts `keyway ARGUMENTS --server URL`.
        func start(_ arguments: [String]) throws -> CLIProcess {
            try CLIProcess(arguments: arguments + ["--server", server.baseURL.absoluteString], environment: environment)
        }

        /// Runs a command to its end with nothing on its standard input.
        func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
            let process = try start(arguments)
            process.closeInput()
            let status = try await process.waitForExit()
            return (status, process.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), process.standardError)
        }

        /// A file in the home.
        func file(_ name: String, _ contents: Data) throws -> String {
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let url = home.appendingPathComponent(name)
            try contents.write(to: url)
            return url.path
        }
    }

    static let adminToken = "test-admin-token-cli-powerauth-0123456789ab"
    static let email = "cli-activation@example.com"

    func admin(_ server: TestServer, _ method: String, _ path: String, _ body: [String: Any]? = nil) async throws
        -> (status: Int, json: [String: Any])
    {
        var headers = ["Authorization": "Bearer \(Self.adminToken)"]
        var data: Data?
        if let body {
            headers["Content-Type"] = "application/json"
            data = try JSONSerialization.data(withJSONObject: body)
        }
        let response = try await server.request(method, path, headers: headers, body: data)
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    func listed(_ server: TestServer, userId: String, _ activationId: String) async throws -> [String: Any]? {
        let list = try await admin(server, "GET", "/admin/users/\(userId)/activations")
        return (list.json["activations"] as? [[String: Any]])?.first { $0["activationId"] as? String == activationId }
    }

    /// Sends the header `keyway sign` printed with `body` to `/pa/v3/signature/validate`.
    func validate(_ server: TestServer, header: String, body: Data) async throws -> Int {
        try await server.request(
            "POST", "/pa/v3/signature/validate",
            headers: ["X-PowerAuth-Authorization": header, "Content-Type": "application/json"], body: body
        ).status
    }

    /// The activation ID the CLI printed at `create`.
    func activationId(_ errors: String) throws -> String {
        let line = try #require(errors.split(separator: "\n").first { $0.hasPrefix("Activation ") && $0.hasSuffix(" created.") })
        return String(line.dropFirst("Activation ".count).dropLast(" created.".count))
    }

    @Test func everyCommandAgainstKeywayServer() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), limits: .unthrottledPowerAuth, adminToken: Self.adminToken)) { server in
            let settings = try await server.request(
                "GET", "/admin/applications/\(TestServer.configId)/powerauth", headers: ["Authorization": "Bearer \(Self.adminToken)"])
            #expect(settings.status == 200)
            let configuration = TestFiles.directory.appendingPathComponent("powerauth-\(UUID().uuidString).json")
            try settings.body.write(to: configuration)
            let laptop = Machine(server, configuration: configuration)

            // keyway login, then the user's ID from the admin API.
            let login = try laptop.start(["login", Self.email])
            login.type(try await waitForCode(server))
            #expect(try await login.waitForExit() == 0, "stderr: \(login.standardError)")
            let users = try await admin(server, "GET", "/admin/users?email=cli-activation%40example.com").json["users"] as? [[String: Any]]
            let userId = try #require(users?.first?["id"] as? String)

            // activation create --code: the fingerprint printed is the server's.
            let code = try await admin(server, "POST", "/admin/users/\(userId)/activations", ["configId": TestServer.configId])
            let typed = try #require(code.json["activationCode"] as? String)
            let created = try await laptop.run(["activation", "create", "--code", typed, "--name", "cli laptop", "--password", "1234"])
            #expect(created.status == 0, "\(created.errors)")
            let firstId = try activationId(created.errors)
            #expect(firstId == code.json["activationId"] as? String)
            let first = try await listed(server, userId: userId, firstId)
            #expect(first?["fingerprint"] as? String == created.output)
            #expect(first?["status"] as? String == "ACTIVE")
            #expect(first?["name"] as? String == "cli laptop")
            let recovery = try #require(created.errors.firstMatch(of: /Recovery code: (\S+)  PUK: (\d{10})/))
            let status = try await laptop.run(["activation", "status"])
            #expect(status.status == 0, "\(status.errors)")
            #expect(status.output.contains("State:           ACTIVE"), "\(status.output)")
            #expect(status.output.contains("in step"), "\(status.output)")

            // keyway sign: headers the server accepts, with one and two factors.
            let body = Data(#"{"amount":"100.00"}"#.utf8)
            let bodyFile = try laptop.file("pay.json", body)
            for factors in ["possession", "possession_knowledge"] {
                let signed = try await laptop.run(["sign", "POST", "/pa/signature/validate", "--body", bodyFile, "--factors", factors, "--password", "1234"])
                #expect(signed.status == 0, "\(signed.errors)")
                #expect(try await validate(server, header: signed.output, body: body) == 200, "\(factors)")
            }
            // No password on an empty standard input: refused, and said so.
            let noPassword = try await laptop.run(["sign", "POST", "/pa/signature/validate", "--body", bodyFile, "--factors", "possession_knowledge"])
            #expect(noPassword.status != 0 && noPassword.errors.contains("no password"), "\(noPassword.errors)")
            // A body file that is not there: said before the password is asked for.
            let noBody = try await laptop.run(["sign", "POST", "/pa/signature/validate", "--body", "missing.json", "--factors", "possession_knowledge"])
            #expect(noBody.status != 0 && noBody.errors.contains("Cannot read the body file missing.json"), "\(noBody.errors)")
            #expect(!noBody.errors.contains("Password"), "\(noBody.errors)")
            // A request without a body, signed over its query.
            let queried = try await laptop.run(["sign", "GET", "/pa/signature/validate", "--query", "to=Bob", "--query", "note=a b", "--factors", "possession"])
            #expect(queried.status == 0, "\(queried.errors)")
            let queryStatus = try await server.request(
                "GET", "/pa/v3/signature/validate?to=Bob&note=a%20b", headers: ["X-PowerAuth-Authorization": queried.output]
            ).status
            #expect(queryStatus == 200)
            // biometry add (the terminal's stand-in), then three factors.
            let biometry = try laptop.start(["activation", "biometry", "add", "--password", "1234"])
            biometry.closeInput()
            #expect(try await biometry.waitForExit() == 0, "\(biometry.standardError)")
            let three = try laptop.start(["sign", "POST", "/pa/signature/validate", "--body", bodyFile, "--factors", "possession_knowledge_biometry", "--password", "1234"])
            three.type("y")
            #expect(try await three.waitForExit() == 0, "\(three.standardError)")
            #expect(try await validate(server, header: three.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines), body: body) == 200)

            // change-password: checked by the server; then the old one fails and the new one works.
            let wrongOld = try await laptop.run(["activation", "change-password", "--old-password", "0000", "--new-password", "5678"])
            #expect(wrongOld.status != 0)
            let changed = try await laptop.run(["activation", "change-password", "--old-password", "1234", "--new-password", "5678"])
            #expect(changed.status == 0, "\(changed.errors)")
            let old = try await laptop.run(["sign", "POST", "/pa/signature/validate", "--body", bodyFile, "--password", "1234"])
            #expect(try await validate(server, header: old.output, body: body) == 401)
            let new = try await laptop.run(["sign", "POST", "/pa/signature/validate", "--body", bodyFile, "--password", "5678"])
            #expect(try await validate(server, header: new.output, body: body) == 200)
            let counted = try await laptop.run(["activation", "status"])
            #expect(counted.output.contains("Failed attempts: 0 of 5"), "\(counted.output)")

            // keyway activation code: a code for a second machine, which activates with it.
            let issued = try await laptop.run(["activation", "code", "--json", "--name", "cli desktop", "--otp", "4455"])
            #expect(issued.status == 0, "\(issued.errors)")
            let issuedJSON = try #require(try JSONSerialization.jsonObject(with: Data(issued.output.utf8)) as? [String: String])
            let desktop = Machine(server, configuration: configuration)
            let withoutOTP = try await desktop.run(["activation", "create", "--code", try #require(issuedJSON["qrPayload"]), "--password", "1111"])
            #expect(withoutOTP.status != 0)
            #expect(withoutOTP.errors.contains("ERR_ACTIVATION"), "\(withoutOTP.errors)")
            let second = try await desktop.run(["activation", "create", "--code", try #require(issuedJSON["qrPayload"]), "--otp", "4455", "--password", "1111"])
            #expect(second.status == 0, "\(second.errors)")
            #expect(try activationId(second.errors) == issuedJSON["activationId"])
            #expect(try await listed(server, userId: userId, try activationId(second.errors))?["fingerprint"] as? String == second.output)

            // A confirmed code: created without a password, PENDING_COMMIT until the admin commits.
            let confirm = try await admin(
                server, "POST", "/admin/users/\(userId)/activations", ["configId": TestServer.configId, "commit": "confirm"])
            let tablet = Machine(server, configuration: configuration)
            let pending = try await tablet.run(["activation", "create", "--code", try #require(confirm.json["activationCode"] as? String)])
            #expect(pending.status == 0, "\(pending.errors)")
            #expect(pending.errors.contains("Not committed yet"))
            let waiting = try await tablet.run(["activation", "status"])
            #expect(waiting.output.contains("State:           PENDING_COMMIT"), "\(waiting.output)")
            #expect(try await admin(server, "POST", "/admin/activations/\(try #require(confirm.json["activationId"] as? String))/commit", [:]).status == 200)
            let committed = try await tablet.run(["activation", "commit", "--password", "2222"])
            #expect(committed.status == 0, "\(committed.errors)")
            #expect(try await tablet.run(["activation", "status"]).output.contains("State:           ACTIVE"))
            let tabletSigned = try await tablet.run(["sign", "POST", "/pa/signature/validate", "--body", bodyFile, "--password", "2222"])
            #expect(try await validate(server, header: tabletSigned.output, body: body) == 200)
            // Wrong passwords: counted, then BLOCKED at the limit; then removed by the administrator.
            for attempt in 1...5 {
                let wrong = try await tablet.run(["sign", "POST", "/pa/signature/validate", "--body", bodyFile, "--password", "bad\(attempt)"])
                #expect(try await validate(server, header: wrong.output, body: body) == 401)
            }
            let blocked = try await tablet.run(["activation", "status"])
            #expect(blocked.output.contains("State:           BLOCKED"), "\(blocked.output)")
            #expect(blocked.output.contains("Failed attempts: 5 of 5 (0 left)"), "\(blocked.output)")
            let tabletId = try #require(confirm.json["activationId"] as? String)
            #expect(try await admin(server, "DELETE", "/admin/activations/\(tabletId)").status == 200)
            #expect(try await tablet.run(["activation", "status"]).output.contains("State:           REMOVED"))

            // activation remove (signed), then --recovery with the code and PUK of the first.
            let removed = try await laptop.run(["activation", "remove", "--password", "5678"])
            #expect(removed.status == 0, "\(removed.errors)")
            #expect(try await listed(server, userId: userId, firstId)?["status"] as? String == "REMOVED")
            let recovered = try await laptop.run([
                "activation", "create", "--recovery", String(recovery.output.1), "--puk", String(recovery.output.2), "--password", "1234",
            ])
            #expect(recovered.status == 0, "\(recovered.errors)")
            let recoveredId = try activationId(recovered.errors)
            #expect(try await listed(server, userId: userId, recoveredId)?["status"] as? String == "ACTIVE")

            // remove --local, then --sign-in with the session of keyway login.
            #expect(try await laptop.run(["activation", "remove", "--local"]).status == 0)
            #expect(try await listed(server, userId: userId, recoveredId)?["status"] as? String == "ACTIVE")
            let signedIn = try await laptop.run(["activation", "create", "--sign-in", "--password", "1234"])
            #expect(signedIn.status == 0, "\(signedIn.errors)")
            let signedInId = try activationId(signedIn.errors)
            #expect(try await listed(server, userId: userId, signedInId)?["fingerprint"] as? String == signedIn.output)
            let final = try await laptop.run(["sign", "POST", "/pa/signature/validate", "--body", bodyFile, "--password", "1234"])
            #expect(try await validate(server, header: final.output, body: body) == 200)
        }
    }

    /// The latest sign-in code sent to the CLI's user.
    func waitForCode(_ server: TestServer) async throws -> String {
        for _ in 0..<1000 {
            if let code = try await server.outbox(to: Self.email).last?.code { return code }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("No code reached \(Self.email).")
    }
}
