import Foundation
@testable import Keyway
import KeywayBackend
import KeywayServer
import KeywayTestSupport
import Testing

/// `keyway-server` against an independent PowerAuth 3.3 client written in Python from the
/// published documents (`Tests/Interop/powerauth_client.py`, with `cryptography`): it activates
/// devices, reads their status and signs requests, and checks every server answer by the protocol
/// rather than by Keyway's code.
@Suite("PowerAuth: an independent Python client against the server", .serialized)
struct PowerAuthInteropTests {
    static let email = "ada@example.com"
    static let password = "correct horse 1"

    /// A scratch directory for the client's state and configuration.
    struct Scratch {
        let directory: URL
        var state: String { directory.appendingPathComponent("state.json").path }
        var config: String { directory.appendingPathComponent("config.json").path }

        init() throws {
            directory = TestFiles.directory.appendingPathComponent("powerauth-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }

        func file(_ name: String, _ contents: Data) throws -> String {
            let url = directory.appendingPathComponent(name)
            try contents.write(to: url)
            return url.path
        }
    }

    /// Runs one command of the client and answers its report (the JSON object of its last line).
    @discardableResult
    func client(_ arguments: [String], clock: ManualClock, expectSuccess: Bool = true) async throws -> [String: Any] {
        let (status, output) = try await PythonScript.run(
            "powerauth_client.py", arguments + ["--server-time", String(clock.now().timeIntervalSince1970)],
            separateErrors: true, timeout: .seconds(120))
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        if expectSuccess {
            #expect(status == 0, "\(arguments.first ?? ""): \(report["error"] ?? output) \(report["body"] ?? "")")
        }
        return report
    }

    /// Signs a user up by an email code through the SDK and answers their user ID and access token.
    func signedInUser(_ server: TestServer, clock: ManualClock) async throws -> (userId: String, accessToken: String) {
        let keyway = try KeywayClient(
            configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
        await keyway.flow.start(identifier: Self.email)
        await keyway.flow.submitCode(try await server.latestCode(to: Self.email))
        let done = try #require(keyway.flow.currentUpdate.completion)
        let tokens = try await keyway.tokens.exchange(authCode: done.authCode, codeVerifier: try #require(done.codeVerifier))
        let users = try await server.admin("GET", "/admin/users?email=ada%40example.com").json["users"] as? [[String: Any]]
        return (try #require(users?.first?["id"] as? String), tokens.response.accessToken.revealed)
    }

    /// Writes the application's PowerAuth configuration, as the admin API shows it, for the client.
    func writeConfiguration(_ server: TestServer, _ scratch: Scratch) async throws {
        let response = try await server.request(
            "GET", "/admin/applications/\(TestServer.configId)/powerauth",
            headers: ["Authorization": "Bearer \(testAdminToken)"])
        #expect(response.status == 200)
        _ = try scratch.file("config.json", response.body)
    }

    /// Makes an activation code for `userId` through the admin API.
    func activationCode(_ server: TestServer, userId: String, _ extra: [String: Any] = [:]) async throws -> [String: Any] {
        var body: [String: Any] = ["configId": TestServer.configId]
        body.merge(extra) { $1 }
        let created = try await server.admin("POST", "/admin/users/\(userId)/activations", body)
        #expect(created.status == 201, "\(created.json)")
        return created.json
    }

    /// The activation's row in the admin API's list.
    func adminActivation(_ server: TestServer, userId: String, _ activationId: String) async throws -> [String: Any]? {
        let list = try await server.admin("GET", "/admin/users/\(userId)/activations").json["activations"] as? [[String: Any]]
        return list?.first { $0["activationId"] as? String == activationId }
    }

    /// The client alone, no server: run once, in the SQLite pass.
    @Test(
        "The independent client passes every published vector that applies to 3.x",
        .enabled(if: !TestDatabase.isPostgres, "it checks the client alone, the same on either database"))
    func vectors() async throws {
        let (status, output) = try await PythonScript.run("powerauth_client.py", ["--self-test"], separateErrors: true)
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        #expect(status == 0, "\(output)")
        #expect(report["ok"] as? Bool == true)
        #expect((report["cases"] as? Int ?? 0) > 1_000)
    }

    @Test("As the 1.9 mobile SDK: the clock from /pa/v3/status, type in the activation, signed GETs with encoded values, a replay, user info")
    func asTheMobileSDKDoes() async throws {
        let clock = ManualClock()
        // The server's clock an hour off this machine's: an envelope stamped with the local time
        // would be stale; the client reads the server's time first, as the mobile SDKs do.
        clock.advance(by: 3_600)
        try await withTestServer(TestServer.start(clock: clock, limits: .unthrottledPowerAuth, adminToken: testAdminToken)) { server in
            let scratch = try Scratch()
            defer { try? FileManager.default.removeItem(at: scratch.directory) }
            func synced(_ arguments: [String], expectSuccess: Bool = true) async throws -> [String: Any] {
                let (status, output) = try await PythonScript.run(
                    "powerauth_client.py", arguments + ["--sync-clock"], separateErrors: true, timeout: .seconds(120))
                let line = output.split(separator: "\n").last.map(String.init) ?? ""
                let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
                if expectSuccess { #expect(status == 0, "\(arguments.first ?? ""): \(output)") }
                return report
            }
            let serverTime = try await synced(["server-status", "--base-url", server.baseURL.absoluteString])
            #expect(serverTime["serverTime"] as? Int == Int((clock.now().timeIntervalSince1970 * 1000).rounded(.down)))
            let (userId, _) = try await signedInUser(server, clock: clock)
            try await writeConfiguration(server, scratch)
            let code = try await activationCode(server, userId: userId)
            let activated = try await synced([
                "activate", "--base-url", server.baseURL.absoluteString, "--config", scratch.config, "--state", scratch.state,
                "--code", try #require(code["qrPayload"] as? String), "--password", Self.password,
            ])
            let activationId = try #require(activated["activationId"] as? String)
            #expect((activated["status"] as? [String: Any])?["activationStatusName"] as? String == "ACTIVE")

            // GETs and a DELETE whose values hold a space, `:`, `@`, `/`, `~` and non-ASCII, signed
            // over the canonical query the Java reference makes.
            for (method, query) in [
                ("GET", ["to=bob@example.com", "note=Rent: 10/2026 ~ Jürgen", "amount=100.00"]),
                ("DELETE", ["id=42", "reason=lost phone"]),
            ] {
                let answer = try await synced(
                    ["call", "--state", scratch.state, "--method", method, "--path", "/pa/v3/signature/validate",
                     "--uri-id", "/pa/signature/validate", "--factors", "possession_knowledge", "--password", Self.password,
                     "--expect-status", "200"] + query.flatMap { ["--query", $0] })
                #expect(answer["httpStatus"] as? Int == 200, "\(answer)")
            }

            // A header sent twice: the replay is refused and counted, and the device's next
            // signatures verify (the server's counter did not move).
            let body = try scratch.file("body.json", Data(#"{"amount":"1"}"#.utf8))
            let signed = try await synced([
                "sign", "--state", scratch.state, "--uri-id", "/pa/signature/validate", "--body-file", body,
                "--factors", "possession_knowledge", "--password", Self.password,
            ])
            let header = try #require(signed["header"] as? String)
            for expected in [200, 401, 401] {
                let answer = try await server.request(
                    "POST", "/pa/v3/signature/validate", headers: ["X-PowerAuth-Authorization": header, "Content-Type": "application/json"],
                    body: Data(#"{"amount":"1"}"#.utf8))
                #expect(answer.status == expected)
            }
            for _ in 0..<3 {
                _ = try await synced([
                    "call", "--state", scratch.state, "--path", "/pa/v3/signature/validate", "--uri-id", "/pa/signature/validate",
                    "--body-file", body, "--factors", "possession_knowledge", "--password", Self.password, "--expect-status", "200",
                ])
            }
            let status = try await synced(["status", "--state", scratch.state])
            #expect(status["activationStatusName"] as? String == "ACTIVE")
            #expect(status["failedAttempts"] as? Int == 0)

            let info = try await synced(["user-info", "--state", scratch.state])
            #expect((info["claims"] as? [String: Any])?["sub"] as? String == userId)
            #expect(try await adminActivation(server, userId: userId, activationId)?["status"] as? String == "ACTIVE")
        }
    }

    @Test("As the 1.7 and 1.8 mobile SDKs (3.2, no temporary keys): activation, status, signatures, vault, token, user info")
    func protocol32() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, limits: .unthrottledPowerAuth, adminToken: testAdminToken)) { server in
            let scratch = try Scratch()
            defer { try? FileManager.default.removeItem(at: scratch.directory) }
            let (userId, _) = try await signedInUser(server, clock: clock)
            try await writeConfiguration(server, scratch)
            let code = try await activationCode(server, userId: userId)
            // Every request in 3.2: envelopes sealed to the master key (activation) and to the
            // activation's server key (vault, token, user info), headers saying version 3.2.
            let v32 = ["--protocol", "3.2"]
            let activated = try await client(
                [
                    "activate", "--base-url", server.baseURL.absoluteString, "--config", scratch.config, "--state",
                    scratch.state, "--code", try #require(code["qrPayload"] as? String), "--password", Self.password,
                ] + v32, clock: clock)
            let activationId = try #require(activated["activationId"] as? String)
            #expect((activated["status"] as? [String: Any])?["activationStatusName"] as? String == "ACTIVE")
            let body = try scratch.file("body.json", Data(#"{"amount":"1"}"#.utf8))
            for factors in ["possession", "possession_knowledge"] {
                let answer = try await client(
                    [
                        "call", "--state", scratch.state, "--path", "/pa/v3/signature/validate", "--uri-id",
                        "/pa/signature/validate", "--body-file", body, "--factors", factors, "--password", Self.password,
                        "--expect-status", "200",
                    ] + v32, clock: clock)
                #expect(answer["httpStatus"] as? Int == 200, "\(factors): \(answer)")
            }
            let vault = try await client(["vault-unlock", "--state", scratch.state, "--password", Self.password] + v32, clock: clock)
            #expect(vault["vaultKeyVerified"] as? Bool == true, "\(vault)")
            let token = try await client(
                ["token-create", "--state", scratch.state, "--factors", "possession_knowledge", "--password", Self.password] + v32,
                clock: clock)
            #expect(token["tokenId"] is String, "\(token)")
            let info = try await client(["user-info", "--state", scratch.state] + v32, clock: clock)
            #expect((info["claims"] as? [String: Any])?["sub"] as? String == userId)
            let status = try await client(["status", "--state", scratch.state] + v32, clock: clock)
            #expect(status["activationStatusName"] as? String == "ACTIVE" && status["failedAttempts"] as? Int == 0)
            #expect(try await adminActivation(server, userId: userId, activationId)?["status"] as? String == "ACTIVE")

            // The same activation answers 3.3 requests too: an app updated to a 1.9 SDK keeps its
            // activation.
            let mixed = try await client(["user-info", "--state", scratch.state], clock: clock)
            #expect((mixed["claims"] as? [String: Any])?["sub"] as? String == userId)
        }
    }

    @Test("By activation code: activate, sign, the counter window, blocking at the limit, unblock, remove, recover")
    func activationCodeLifecycle() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, limits: .unthrottledPowerAuth, adminToken: testAdminToken)) { server in
            let scratch = try Scratch()
            defer { try? FileManager.default.removeItem(at: scratch.directory) }
            let (userId, _) = try await signedInUser(server, clock: clock)
            try await writeConfiguration(server, scratch)
            let code = try await activationCode(server, userId: userId)
            let qr = try #require(code["qrPayload"] as? String)

            let activated = try await client(
                [
                    "activate", "--base-url", server.baseURL.absoluteString, "--config", scratch.config, "--state",
                    scratch.state, "--code", qr, "--password", Self.password, "--name", "Ada's phone",
                ], clock: clock)
            let activationId = try #require(activated["activationId"] as? String)
            #expect(activationId == code["activationId"] as? String)
            #expect(activated["activationCodeSignatureVerified"] as? Bool == true)
            let status = try #require(activated["status"] as? [String: Any])
            #expect(status["activationStatusName"] as? String == "ACTIVE")
            #expect(status["counterHashMatches"] as? Bool == true)
            // The same fingerprint on both sides.
            let fingerprint = try #require(activated["fingerprint"] as? String)
            #expect(fingerprint.count == 8)
            let listed = try #require(try await adminActivation(server, userId: userId, activationId))
            #expect(listed["fingerprint"] as? String == fingerprint)
            #expect(listed["status"] as? String == "ACTIVE")
            #expect(listed["name"] as? String == "Ada's phone")
            let recovery = try #require(activated["recovery"] as? [String: Any])
            let recoveryCode = try #require(recovery["recoveryCode"] as? String)
            let puk = try #require(recovery["puk"] as? String)

            // Signed requests with one, two and three factors the server accepts.
            let body = try scratch.file("body.json", Data(#"{"amount":"100.00"}"#.utf8))
            func validate(_ factors: String, password: String = Self.password, offset: Int = 0, expect: Int) async throws {
                try await client(
                    [
                        "call", "--state", scratch.state, "--path", "/pa/v3/signature/validate", "--uri-id",
                        "/pa/signature/validate", "--body-file", body, "--factors", factors, "--password", password,
                        "--offset", String(offset), "--expect-status", String(expect),
                    ], clock: clock)
            }
            try await validate("possession", expect: 200)
            try await validate("possession_knowledge", expect: 200)
            // A device that signed 15 requests offline is still in the window; one 25 ahead is not.
            try await validate("possession_knowledge", offset: 15, expect: 200)
            try await validate("possession_knowledge", offset: 25, expect: 401)
            _ = try await client(["status", "--state", scratch.state, "--resync-counter"], clock: clock)
            try await validate("possession_knowledge", expect: 200)

            // Wrong passwords count; the fifth failure blocks the activation.
            for attempt in 1...5 {
                try await validate("possession_knowledge", password: "wrong \(attempt)", expect: 401)
            }
            let blocked = try await client(["status", "--state", scratch.state], clock: clock)
            #expect(blocked["activationStatusName"] as? String == "BLOCKED")
            try await validate("possession_knowledge", expect: 401)
            #expect(try await server.admin("POST", "/admin/activations/\(activationId)/unblock").status == 200)
            let unblocked = try await client(["status", "--state", scratch.state, "--resync-counter"], clock: clock)
            #expect(unblocked["activationStatusName"] as? String == "ACTIVE")
            #expect(unblocked["failedAttempts"] as? Int == 0)
            try await validate("possession_knowledge", expect: 200)

            // A two-factor removal signed by the device.
            try await client(
                [
                    "call", "--state", scratch.state, "--path", "/pa/v3/activation/remove", "--uri-id",
                    "/pa/activation/remove", "--factors", "possession_knowledge", "--password", Self.password,
                    "--expect-status", "200",
                ], clock: clock)
            let removed = try await client(["status", "--state", scratch.state], clock: clock)
            #expect(removed["activationStatusName"] as? String == "REMOVED")

            // Recovery after the removal: a new activation for the same user.
            let recoveredState = scratch.directory.appendingPathComponent("recovered.json").path
            let recovered = try await client(
                [
                    "activate", "--base-url", server.baseURL.absoluteString, "--config", scratch.config, "--state",
                    recoveredState, "--recovery-code", recoveryCode, "--puk", puk, "--password", Self.password,
                ], clock: clock)
            let recoveredId = try #require(recovered["activationId"] as? String)
            #expect(recoveredId != activationId)
            #expect((recovered["status"] as? [String: Any])?["activationStatusName"] as? String == "ACTIVE")
            #expect(try await adminActivation(server, userId: userId, recoveredId) != nil)
        }
    }

    @Test("By a Keyway sign-in: the access token is the custom credential")
    func signInActivation() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, limits: .unthrottledPowerAuth, adminToken: testAdminToken)) { server in
            let scratch = try Scratch()
            defer { try? FileManager.default.removeItem(at: scratch.directory) }
            let (userId, accessToken) = try await signedInUser(server, clock: clock)
            try await writeConfiguration(server, scratch)
            let activated = try await client(
                [
                    "activate", "--base-url", server.baseURL.absoluteString, "--config", scratch.config, "--state",
                    scratch.state, "--access-token", accessToken, "--password", Self.password,
                ], clock: clock)
            let activationId = try #require(activated["activationId"] as? String)
            #expect((activated["status"] as? [String: Any])?["activationStatusName"] as? String == "ACTIVE")
            #expect(try await adminActivation(server, userId: userId, activationId)?["status"] as? String == "ACTIVE")
            // A token that is not a Keyway access token activates nothing.
            let refused = try await client(
                [
                    "activate", "--base-url", server.baseURL.absoluteString, "--config", scratch.config, "--state",
                    scratch.directory.appendingPathComponent("other.json").path, "--access-token", "not-a-token",
                    "--password", Self.password,
                ], clock: clock, expectSuccess: false)
            #expect(refused["ok"] as? Bool == false)
            #expect(refused["httpStatus"] as? Int == 400)
        }
    }

    @Test("An app's own backend opens the client's encrypted requests, the client opens the answers; its token header is accepted once")
    func backendEncryptionAndTokens() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, limits: .unthrottledPowerAuth, adminToken: testAdminToken)) { server in
            let scratch = try Scratch()
            defer { try? FileManager.default.removeItem(at: scratch.directory) }
            let (userId, _) = try await signedInUser(server, clock: clock)
            try await writeConfiguration(server, scratch)
            let code = try await activationCode(server, userId: userId)
            let activated = try await client(
                [
                    "activate", "--base-url", server.baseURL.absoluteString, "--config", scratch.config, "--state",
                    scratch.state, "--code", try #require(code["qrPayload"] as? String), "--password", Self.password,
                ], clock: clock)
            let activationId = try #require(activated["activationId"] as? String)
            let application = try await confidentialApplication(server, adminToken: testAdminToken)
            let keyway = try KeywayBackend(
                configuration: .init(
                    issuer: server.baseURL, clientId: application.configId, clientSecret: Sensitive(application.secret)))
            try await withTestServer(PowerAuthBackendEncryptionTests.API.start(keyway)) { api in
                let body = try scratch.file("question.json", Data(#"{"question":"what is the rate?"}"#.utf8))
                // Application scope, with the configuration alone.
                let applicationScope = try await client(
                    [
                        "encrypt", "--scope", "application", "--config", scratch.config, "--base-url",
                        server.baseURL.absoluteString, "--url", "http://127.0.0.1:\(api.port)/echo/application", "--body-file",
                        body, "--expect-status", "200",
                    ], clock: clock)
                let opened = try JSONSerialization.jsonObject(
                    with: Data(try #require(applicationScope["response"] as? String).utf8)) as? [String: Any] ?? [:]
                #expect(opened["echo"] as? String == #"{"question":"what is the rate?"}"#)
                #expect(opened["scope"] as? String == "application")
                #expect(opened["applicationId"] as? String == TestServer.configId)

                // Activation scope, named in the X-PowerAuth-Encryption header.
                let activationScope = try await client(
                    [
                        "encrypt", "--scope", "activation", "--state", scratch.state, "--url",
                        "http://127.0.0.1:\(api.port)/echo/activation", "--body-file", body, "--expect-status", "200",
                    ], clock: clock)
                let openedActivation = try JSONSerialization.jsonObject(
                    with: Data(try #require(activationScope["response"] as? String).utf8)) as? [String: Any] ?? [:]
                #expect(openedActivation["scope"] as? String == "activation")
                #expect(openedActivation["activationId"] as? String == activationId)
                #expect(openedActivation["userId"] as? String == userId)

                // Encrypt-then-sign, possession and knowledge.
                let paid = try await client(
                    [
                        "encrypt", "--scope", "activation", "--state", scratch.state, "--url",
                        "http://127.0.0.1:\(api.port)/payments/pay", "--body-file", body, "--sign-uri-id", "/payments/pay",
                        "--factors", "possession_knowledge", "--password", Self.password, "--expect-status", "200",
                    ], clock: clock)
                #expect(paid["response"] as? String == #"paid {"question":"what is the rate?"} by \#(userId)"#)

                // The client's application-scope request sent again: refused.
                let requestBody = try #require(applicationScope["requestBody"] as? String)
                let headers = try #require(applicationScope["requestHeaders"] as? [String: String])
                let replayed = try await api.send("/echo/application", headers: headers, body: Data(requestBody.utf8))
                #expect(replayed.status == 400)
                #expect(PowerAuthBackendEncryptionTests.reason(replayed.json) == "replayed_envelope", "\(replayed.text)")

                // A token created over /pa/v3/token/create; its header is accepted once.
                let created = try await client(
                    [
                        "token-create", "--state", scratch.state, "--name", "watch", "--factors", "possession_knowledge",
                        "--password", Self.password,
                    ], clock: clock)
                let tokenId = try #require(created["tokenId"] as? String)
                let header = try #require(
                    try await client(["token-header", "--state", scratch.state, "--name", "watch"], clock: clock)["header"]
                        as? String)
                let verified = try await keyway.verifyToken(header: header, requiredFactors: [.possession, .knowledge])
                #expect(verified.isValid, "\(String(describing: verified.refusal))")
                #expect(verified.tokenId == tokenId)
                #expect(verified.userId == userId)
                #expect(verified.activationId == activationId)
                #expect(try await keyway.verifyToken(header: header).refusal?.code == "TOKEN_REPLAYED")
                let fresh = try #require(
                    try await client(["token-header", "--state", scratch.state, "--name", "watch"], clock: clock)["header"]
                        as? String)
                let balance = try await api.send("/accounts/balance", method: "GET", headers: ["X-PowerAuth-Token": fresh], body: nil)
                #expect(balance.status == 200, "\(balance.text)")
                #expect(balance.text == "balance of \(userId)")
            }
        }
    }
}
