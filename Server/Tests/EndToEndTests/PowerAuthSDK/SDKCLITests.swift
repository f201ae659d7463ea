import Foundation
import KeywayPowerAuth
import KeywayTestSupport
import Testing

/// The `keyway` CLI's `encrypt`, `vault key`, `token …` and `recovery …` commands — the SDK's
/// public API — over real HTTP against the real keyway-server.
@Suite("PowerAuth: keyway encrypt, vault, token and recovery against keyway-server")
struct SDKCLITests {
    @Test func encryptVaultTokenAndRecoveryCommands() async throws {
        let interop = ActivationCLIInteropTests()
        try await withTestServer(TestServer.start(clock: ManualClock(), limits: .unthrottledPowerAuth, adminToken: ActivationCLIInteropTests.adminToken)) { server in
            let settings = try await server.request(
                "GET", "/admin/applications/\(TestServer.configId)/powerauth",
                headers: ["Authorization": "Bearer \(ActivationCLIInteropTests.adminToken)"])
            let configuration = TestFiles.directory.appendingPathComponent("powerauth-\(UUID().uuidString).json")
            try settings.body.write(to: configuration)
            let laptop = ActivationCLIInteropTests.Machine(server, configuration: configuration)
            let login = try laptop.start(["login", ActivationCLIInteropTests.email])
            login.type(try await interop.waitForCode(server))
            #expect(try await login.waitForExit() == 0, "stderr: \(login.standardError)")
            let users = try await interop.admin(server, "GET", "/admin/users?email=cli-activation%40example.com").json["users"] as? [[String: Any]]
            let userId = try #require(users?.first?["id"] as? String)

            // The app's backend, and its API that takes encrypted bodies.
            let backend = try await SDKBackend.make(
                server: server,
                created: try await interop.admin(server, "POST", "/admin/applications", ["name": "CLI backend", "clientType": "confidential"]))
            // Activate this machine.
            let code = try await interop.admin(server, "POST", "/admin/users/\(userId)/activations", ["configId": TestServer.configId])
            let activated = try await laptop.run([
                "activation", "create", "--code", try #require(code.json["activationCode"] as? String), "--password", "1234",
            ])
            #expect(activated.status == 0, "\(activated.errors)")
            let shown = try #require(activated.errors.firstMatch(of: /Recovery code: (\S+)  PUK: (\d{10})/))
            let recoveryCode = String(shown.output.1)
            let recoveryPUK = String(shown.output.2)

            try await withTestServer(EciesEchoAPI.start(backend)) { api in
                // Application scope, from a machine without any activation.
                let bare = ActivationCLIInteropTests.Machine(server, configuration: configuration)
                let bodyFile = try bare.file("secret.json", Data(#"{"pin":"0000"}"#.utf8))
                let application = try await bare.run(["encrypt", "--scope", "application", "--url", api.url.absoluteString, "--body", bodyFile])
                #expect(application.status == 0, "\(application.errors)")
                #expect(application.output == #"{"received":"{\"pin\":\"0000\"}"}"#, "\(application.output)")
                // Activation scope needs the activation.
                #expect(try await bare.run(["encrypt", "--scope", "activation", "--url", api.url.absoluteString]).status != 0)
                let activation = try await laptop.run(["encrypt", "--scope", "activation", "--url", api.url.absoluteString])
                #expect(activation.status == 0, "\(activation.errors)")
                #expect(activation.output == #"{"received":"{}"}"#, "\(activation.output)")
            }

            // vault key N: stable per index, distinct between indexes.
            let one = try await laptop.run(["vault", "key", "1", "--password", "1234"])
            #expect(one.status == 0, "\(one.errors)")
            #expect(Data(base64Encoded: one.output)?.count == 16)
            #expect(try await laptop.run(["vault", "key", "1", "--password", "1234"]).output == one.output)
            #expect(try await laptop.run(["vault", "key", "2", "--password", "1234"]).output != one.output)
            #expect(try await laptop.run(["vault", "key", "1", "--factors", "possession"]).status != 0)

            // token create | header | list | remove, the header verified by the backend endpoint.
            let token = try await laptop.run(["token", "create", "balance", "--password", "1234"])
            #expect(token.status == 0, "\(token.errors)")
            let header = try await laptop.run(["token", "header", "balance"])
            #expect(header.status == 0, "\(header.errors)")
            let verified = try await backend.verifyToken(header.output)
            #expect(verified["valid"] as? Bool == true, "\(verified)")
            #expect(verified["tokenId"] as? String == token.output)
            #expect(verified["factors"] as? String == "possession_knowledge")
            let list = try await laptop.run(["token", "list"])
            #expect(list.output == "balance\t\(token.output)\tpossession_knowledge", "\(list.output)")
            let beforeRemoval = try await laptop.run(["token", "header", "balance"])
            #expect(try await laptop.run(["token", "remove", "balance"]).status == 0)
            #expect(try await backend.verifyToken(beforeRemoval.output).refusalCode == "TOKEN_INVALID")
            #expect(try await laptop.run(["token", "header", "balance"]).errors.contains("token_not_found"))
            #expect(try await laptop.run(["token", "list"]).output.isEmpty)

            // recovery show: the code and PUK printed at activation.
            let recovery = try await laptop.run(["recovery", "show", "--password", "1234"])
            #expect(recovery.status == 0, "\(recovery.errors)")
            let lines = recovery.output.split(separator: "\n").map(String.init)
            #expect(lines == [recoveryCode, recoveryPUK])
            // recovery confirm CODE for a postcard.
            let postcard = try await interop.admin(
                server, "POST", "/admin/users/\(userId)/recovery-codes", ["configId": TestServer.configId, "pukCount": 1])
            let postcardCode = try #require(postcard.json["recoveryCode"] as? String)
            let confirmed = try await laptop.run(["recovery", "confirm", postcardCode, "--password", "1234"])
            #expect(confirmed.status == 0, "\(confirmed.errors)")
            #expect(confirmed.errors.contains("The recovery code is confirmed."))
            let unknown = try await laptop.run(["recovery", "confirm", ActivationCode.random().value, "--password", "1234"])
            #expect(unknown.status != 0)
            #expect(unknown.errors.contains("ERR_RECOVERY"), "\(unknown.errors)")

            // keyway token alone still prints the access token.
            let access = try await laptop.run(["token"])
            #expect(access.status == 0, "\(access.errors)")
            #expect(!access.output.isEmpty)
        }
    }
}
