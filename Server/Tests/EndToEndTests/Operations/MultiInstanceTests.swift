import Foundation
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Two `keyway-server` processes on one PostgreSQL database, as behind a load balancer: a flow
/// started on one finishes on the other, codes and refresh tokens are single-use across both, and
/// concurrent refreshes of one token behave as on one instance. Runs when the tests run on
/// PostgreSQL (`KEYWAY_TEST_DATABASE_URL`).
@Suite("Several instances on one PostgreSQL database", .enabled(if: TestDatabase.isPostgres))
struct MultiInstanceTests {
    static let configId = "cfg_multi"

    /// One instance: its process and port.
    struct Instance: Sendable {
        let process: CLIProcess
        let port: Int
        /// The metrics listener's port, when the instance was started with one.
        var metricsPort: Int? = nil

        func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data? = nil) async throws
            -> (status: Int, json: [String: Any])
        {
            let response = try await RawHTTPClient.send(
                method: method, host: "127.0.0.1", port: port, path: path, headers: headers, body: body)
            let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
            return (response.status, json)
        }

        func json(_ method: String, _ path: String, _ body: [String: Any], flowToken: String? = nil) async throws
            -> (status: Int, json: [String: Any])
        {
            var headers = [ProtocolHeader.configID: MultiInstanceTests.configId, "Content-Type": "application/json"]
            headers[ProtocolHeader.flowToken] = flowToken
            return try await send(method, path, headers: headers, body: try JSONSerialization.data(withJSONObject: body))
        }

        func token(_ form: [String: String], at path: String = "/oauth2/token") async throws -> (status: Int, json: [String: Any]) {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let body = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
                .joined(separator: "&")
            return try await send(
                "POST", path, headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(body.utf8))
        }

        /// The codes this instance's dev outbox holds for `email`.
        func codes(to email: String) async throws -> [String] {
            let query = email.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? email
            let listing = try await send("GET", "/dev/outbox?to=\(query)")
            return ((listing.json["messages"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String }
        }
    }

    /// Starts two instances on one fresh database at the same moment.
    static func startTwo(issuer: String? = nil) async throws -> (Instance, Instance, PostgresLocation) {
        guard case .postgres(let location) = try await TestDatabase.fresh() else {
            throw TestFailure("The multi-instance tests need PostgreSQL.")
        }
        let url = location.description
        async let first = start(url, issuer: issuer)
        async let second = start(url, issuer: issuer)
        return (try await first, try await second, location)
    }

    /// Starts an instance on `url`; `metricsToken` adds a metrics listener on a free loopback port
    /// that reads the metrics to that token; `arguments` are more options of `serve`.
    static func start(
        _ url: String, issuer: String? = nil, metricsToken: String? = nil, arguments: [String] = []
    ) async throws -> Instance {
        var environment = ["KEYWAY_ADMIN_TOKEN": testAdminToken, "KEYWAY_MASTER_KEY": TestServer.masterKey.text]
        environment["KEYWAY_METRICS_TOKEN"] = metricsToken
        let process = try CLIProcess(
            arguments: ["serve", "--port", "0", "--database", url, "--dev-config-id", configId, "--database-pool-size", "4"]
                + (issuer.map { ["--issuer", $0] } ?? []) + (metricsToken == nil ? [] : ["--metrics-listen", "127.0.0.1:0"])
                + arguments,
            environment: environment, executable: "keyway-server")
        return try await process.settingUp { process in
            try await process.waitForError(containing: "keyway-server listening on", timeout: .seconds(60))
            let line = process.standardError.split(separator: "\n").first { $0.contains("keyway-server listening on") } ?? ""
            let port = try #require(line.firstMatch(of: /listening on .+:([0-9]+),/).flatMap { Int($0.output.1) })
            var instance = Instance(process: process, port: port)
            if metricsToken != nil {
                try await process.waitForError(containing: "metrics listening on", timeout: .seconds(60))
                let metricsPort = try #require(
                    process.standardError.firstMatch(of: /metrics listening on http:\/\/127\.0\.0\.1:([0-9]+)\/metrics/)
                        .flatMap { Int($0.output.1) })
                instance.metricsPort = metricsPort
            }
            return instance
        }
    }

    /// The newest code sent to `email`, from whichever instance delivered it.
    static func code(to email: String, _ instances: [Instance]) async throws -> String {
        var found: String?
        try await waitUntil("the code for \(email) was delivered") {
            for instance in instances {
                if let code = try await instance.codes(to: email).last { found = code }
            }
            return found != nil
        }
        return try #require(found)
    }

    /// Starts a sign-in for `email` on `start`, finishes it on `finish`, redeems the code on
    /// `start` again: the first token set of a family.
    static func signIn(_ email: String, start: Instance, finish: Instance, replay: Bool = false) async throws
        -> [String: Any]
    {
        var random = SystemRandomNumberGenerator()
        let verifier = PKCE.makeVerifier(using: &random)
        let started = try await start.json(
            "POST", "/v1/flows",
            [
                "flowType": "signin", "identifier": email, "codeChallenge": PKCE.challenge(for: verifier),
                "codeChallengeMethod": "S256",
            ])
        #expect(started.status == 200 || started.status == 201, "\(started.json)")
        let flowId = try #require(started.json["flowId"] as? String)
        let flowToken = try #require(started.json["flowToken"] as? String)
        let code = try await code(to: email, [start, finish])
        let completed = try await finish.json("POST", "/v1/flows/\(flowId)/code", ["code": code], flowToken: flowToken)
        #expect(completed.status == 200, "\(completed.json)")
        let authCode = try #require((completed.json["completed"] as? [String: Any])?["authCode"] as? String)
        let tokens = try await start.token([
            "grant_type": "authorization_code", "code": authCode, "code_verifier": verifier, "client_id": configId,
        ])
        #expect(tokens.status == 200, "\(tokens.json)")
        guard replay else { return tokens.json }
        // The same code at the other instance: used up, and what it gave is revoked.
        let replayed = try await finish.token([
            "grant_type": "authorization_code", "code": authCode, "code_verifier": verifier, "client_id": configId,
        ])
        #expect(replayed.json["error"] as? String == "invalid_grant")
        return tokens.json
    }

    @Test func aFlowStartedOnOneInstanceFinishesOnTheOtherAndTokensRotateAcrossBoth() async throws {
        let (a, b, location) = try await Self.startTwo()
        defer {
            Task {
                await a.process.stop()
                await b.process.stop()
            }
        }
        // Started together, they migrated once and provisioned one dev application.
        let migrations = try await ChildProcess.run(
            "psql", [TestServer.psqlURL(location), "-tAc", "SELECT COUNT(*), COUNT(DISTINCT version), MAX(version) FROM keyway_migrations"])
        let counts = String(decoding: migrations.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = counts.split(separator: "|")
        #expect(parts.count == 3 && Set(parts).count == 1 && (Int(parts[0]) ?? 0) >= 15, "\(counts)")
        let applications = try await ChildProcess.run(
            "psql", [TestServer.psqlURL(location), "-tAc", "SELECT COUNT(*) FROM applications"])
        #expect(String(decoding: applications.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "1")

        // A sign-in across both, then refreshes alternating between them.
        let replayed = try await Self.signIn("multi@example.com", start: a, finish: b, replay: true)
        // The replayed code revoked the family its first redemption started.
        let revoked = try await b.token([
            "grant_type": "refresh_token", "refresh_token": try #require(replayed["refresh_token"] as? String),
            "client_id": Self.configId,
        ])
        #expect(revoked.json["error"] as? String == "invalid_grant")

        let first = try await Self.signIn("alternate@example.com", start: b, finish: a)
        var token = try #require(first["refresh_token"] as? String)
        for (index, instance) in [a, b, a, b].enumerated() {
            let refreshed = try await instance.token([
                "grant_type": "refresh_token", "refresh_token": token, "client_id": Self.configId,
            ])
            #expect(refreshed.status == 200, "refresh \(index): \(refreshed.json)")
            token = try #require(refreshed.json["refresh_token"] as? String)
        }

        // The same token refreshed at both instances at once: both get the one successor, as
        // two requests do on one instance within the grace period; the family lives on.
        for _ in 0..<5 {
            let form = ["grant_type": "refresh_token", "refresh_token": token, "client_id": Self.configId]
            async let left = a.token(form)
            async let right = b.token(form)
            let (one, two) = try await (left, right)
            #expect(one.status == 200 && two.status == 200, "\(one.json) \(two.json)")
            let successor = try #require(one.json["refresh_token"] as? String)
            #expect(two.json["refresh_token"] as? String == successor)
            token = successor
        }
        let last = try await b.token(["grant_type": "refresh_token", "refresh_token": token, "client_id": Self.configId])
        #expect(last.status == 200)
    }

    @Test func oneCodeCompletesOneFlowWhenBothInstancesCheckItAtOnce() async throws {
        let (a, b, _) = try await Self.startTwo()
        defer {
            Task {
                await a.process.stop()
                await b.process.stop()
            }
        }
        for round in 0..<5 {
            let email = "race\(round)@example.com"
            var random = SystemRandomNumberGenerator()
            let challenge = PKCE.challenge(for: PKCE.makeVerifier(using: &random))
            let started = try await a.json(
                "POST", "/v1/flows",
                ["flowType": "signin", "identifier": email, "codeChallenge": challenge, "codeChallengeMethod": "S256"])
            let flowId = try #require(started.json["flowId"] as? String)
            let flowToken = try #require(started.json["flowToken"] as? String)
            let code = try await Self.code(to: email, [a, b])
            async let left = a.json("POST", "/v1/flows/\(flowId)/code", ["code": code], flowToken: flowToken)
            async let right = b.json("POST", "/v1/flows/\(flowId)/code", ["code": code], flowToken: flowToken)
            let answers = try await [left, right]
            let completed = answers.filter { ($0.json["completed"] as? [String: Any])?["authCode"] != nil }
            #expect(completed.count == 1, "round \(round): \(answers.map(\.json))")
            let other = try #require(answers.first { ($0.json["completed"] as? [String: Any]) == nil })
            #expect(other.status >= 400, "round \(round): \(other.json)")
        }
    }

    /// An emergency rotation (no pre-publication) on one instance: its tokens, signed with the new
    /// key at once, are accepted by the other at once — it reads the keys again for a key it does
    /// not know — instead of being refused until its next refresh.
    @Test func anEmergencyRotationOnOneInstanceIsFollowedAtOnceByTheOther() async throws {
        // One issuer for both, as behind a load balancer: each accepts the other's tokens.
        let (a, b, _) = try await Self.startTwo(issuer: "https://auth.example.test")
        defer {
            Task {
                await a.process.stop()
                await b.process.stop()
            }
        }
        // B has read the keys (at start); it would read them again only 30 seconds later.
        #expect(try await b.send("GET", "/.well-known/jwks.json").status == 200)
        let headers = ["Authorization": "Bearer \(testAdminToken)", "Content-Type": "application/json"]
        let rotated = try await a.send(
            "POST", "/admin/signing-keys/rotate", headers: headers,
            body: try JSONSerialization.data(withJSONObject: ["prePublicationSeconds": 0]))
        #expect(rotated.status == 201, "\(rotated.json)")
        let next = try #require(rotated.json["nextKid"] as? String)
        let tokens = try await Self.signIn("emergency@example.com", start: a, finish: a)
        let access = try #require(tokens["access_token"] as? String)
        let header = try #require(access.split(separator: ".").first.flatMap { Base64URL.decode(String($0)) })
        #expect((try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any])?["kid"] as? String == next)
        // B's first sight of the new key is a revocation: it reads the keys and revokes the token
        // (it used to answer 200 as for an unknown token and revoke nothing).
        let revokedTokens = try await Self.signIn("emergency-revoked@example.com", start: a, finish: a)
        let revokedAccess = try #require(revokedTokens["access_token"] as? String)
        let revocation = try await b.token(["token": revokedAccess, "client_id": Self.configId], at: "/oauth2/revoke")
        #expect(revocation.status == 200, "\(revocation.json)")
        let refused = try await b.send("GET", "/oauth2/userinfo", headers: ["Authorization": "Bearer \(revokedAccess)"])
        #expect(refused.status == 401, "\(refused.json)")
        let info = try await b.send("GET", "/oauth2/userinfo", headers: ["Authorization": "Bearer \(access)"])
        #expect(info.status == 200, "\(info.json)")
        // A made-up key is looked for at most once a second: refused, and B still answers.
        let forged = access.split(separator: ".").enumerated().map { index, part in
            index == 0 ? Base64URL.encode(Array(#"{"alg":"ES256","typ":"at+jwt","kid":"made-up"}"#.utf8)) : String(part)
        }.joined(separator: ".")
        for _ in 0..<3 {
            #expect(try await b.send("GET", "/oauth2/userinfo", headers: ["Authorization": "Bearer \(forged)"]).status == 401)
        }
    }

    @Test func rotatingTheSigningKeyOnBothInstancesAtOnceMakesOneSuccessor() async throws {
        let (a, b, _) = try await Self.startTwo()
        defer {
            Task {
                await a.process.stop()
                await b.process.stop()
            }
        }
        let headers = ["Authorization": "Bearer \(testAdminToken)", "Content-Type": "application/json"]
        let body = try JSONSerialization.data(withJSONObject: ["prePublicationSeconds": 600])
        async let left = a.send("POST", "/admin/signing-keys/rotate", headers: headers, body: body)
        async let right = b.send("POST", "/admin/signing-keys/rotate", headers: headers, body: body)
        let answers = try await [left, right]
        #expect(answers.filter { $0.json["created"] as? Bool == true }.count == 1, "\(answers.map(\.json))")
        let next = try #require(answers[0].json["nextKid"] as? String)
        #expect(answers[1].json["nextKid"] as? String == next)
        for instance in [a, b] {
            // One key signs, the next is published beside it, on both instances.
            let listed = try await instance.send("GET", "/admin/signing-keys", headers: headers)
            let states = ((listed.json["keys"] as? [[String: Any]]) ?? []).filter { $0["algorithm"] as? String == "ES256" }
                .compactMap { $0["state"] as? String }
            #expect(states == ["active", "next"])
            let jwks = try await instance.send("GET", "/.well-known/jwks.json")
            #expect(((jwks.json["keys"] as? [[String: Any]]) ?? []).compactMap { $0["kid"] as? String }.contains(next))
        }
    }
}
