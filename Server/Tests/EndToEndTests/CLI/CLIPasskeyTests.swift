import Foundation
import KeywayProtocol
import KeywayTestSupport
import Testing

/// The CLI as a software authenticator: its passkeys kept encrypted in its state folder, made in
/// a sign-up, used by `keyway login --passkey` without an identifier.
@Suite("Passkeys in the terminal: a software passkey in the state folder")
struct CLIPasskeyTests {
    @Test func theCLIMakesAPasskeyAtSignUpAndSignsInWithItAlone() async throws {
        let policy: [String: Any] = ["primaryMethods": ["passkey"], "flowTypes": ["signin", "signup", "accountManage"]]
        try await withTestServer(AdaptiveHarness.start(policy: policy, issuerHost: "localhost")) { harness in
            let server = harness.server
            let url = "http://localhost:\(server.port)"
            let home = TestFiles.directory.appendingPathComponent("keyway-cli-\(UUID().uuidString)")
            let environment = ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_HOME": home.path]

            // Sign-up: the code, then the passkey's name; the passkey is made in the state folder.
            let signup = try CLIProcess(arguments: ["signup", "ada@example.com", "--server", url], environment: environment)
            try await waitUntil("the code reached the outbox") { (try? await server.outbox(to: "ada@example.com").count) ?? 0 >= 1 }
            signup.type(try await server.latestCode(to: "ada@example.com"))
            signup.type("Terminal")
            #expect(try await signup.waitForExit() == 0, "stderr: \(signup.standardError)")
            #expect(signup.standardError.contains("software keys kept encrypted in \(home.path)"))
            #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("passkeys.key").path))
            #expect(try await server.rowCount("passkey_credentials WHERE name = 'Terminal'") == 1)
            // Encrypted: the file does not hold the credential's JSON in the clear.
            let store = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix("passkeys") }
            for name in store {
                let data = try Data(contentsOf: home.appendingPathComponent(name))
                #expect(!String(decoding: data, as: UTF8.self).contains("privateKey"), "\(name) holds the key in the clear")
            }

            // Sign-in with the passkey alone: nothing typed, no code sent.
            let login = try CLIProcess(arguments: ["login", "--passkey", "--json", "--server", url], environment: environment)
            login.closeInput()
            #expect(try await login.waitForExit() == 0, "stderr: \(login.standardError)")
            #expect(login.standardOutput.contains("access_token"))
            #expect(try await server.outbox(to: "ada@example.com").count == 1)

            // Another machine (another state folder) has no passkey: a clear refusal.
            let elsewhere = ["KEYWAY_CONFIG_ID": TestServer.configId,
                             "KEYWAY_HOME": TestFiles.directory.appendingPathComponent("keyway-cli-\(UUID().uuidString)").path]
            let stranger = try CLIProcess(arguments: ["login", "--passkey", "--server", url], environment: elsewhere)
            stranger.closeInput()
            #expect(try await stranger.waitForExit() != 0)
            #expect(stranger.standardError.contains("no passkey"), "stderr: \(stranger.standardError)")

            // Arguments: --passkey takes no identifier.
            let wrong = try CLIProcess(arguments: ["login", "--passkey", "ada@example.com", "--server", url], environment: environment)
            wrong.closeInput()
            #expect(try await wrong.waitForExit() != 0)
            #expect(wrong.standardError.contains("--passkey signs in without an identifier"))
        }
    }
}
