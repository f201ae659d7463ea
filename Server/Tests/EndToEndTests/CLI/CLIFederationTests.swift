import Foundation
import KeywayJOSE
import KeywayTestSupport
import Testing

/// `keyway login` signing in with another provider, as a real process against the real server:
/// the user picks the provider from the CLI's menu, the CLI prints the provider's URL and waits on
/// its loopback listener (`--loopback`); the test plays the browser — the stand-in provider, then
/// Keyway's browser callback, then the CLI's listener — and the CLI ends signed in.
@Suite("CLI: keyway login with another provider and --loopback")
struct CLIFederationTests {
    @Test func theCLIChoosesTheProviderAndCatchesTheReturnOnItsLoopbackListener() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            // The dev application registers http://127.0.0.1/callback (any port) from its creation.
            try await FederationFlowTests().prepare(server, provider: provider)
            let cli = try CLIProcess(
                arguments: ["login", "--loopback", "--server", server.baseURL.absoluteString, "ada@example.com"],
                environment: ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_PRINT_AUTHORIZATION_URL": "1"])

            // The menu of methods: the provider's label, chosen by its number.
            try await cli.waitForError(containing: "Choose 1")
            let entry = try #require(
                cli.standardError.split(separator: "\n").first { $0.hasSuffix(". Continue with Acme") }, "\(cli.standardError)")
            let number = try #require(entry.trimmingCharacters(in: .whitespaces).split(separator: ".").first)
            cli.type(String(number))

            // The provider's URL, and the listener the browser comes back to.
            let marker = "keyway-authorization-url: "
            try await cli.waitForOutput(containing: marker)
            try await cli.waitForOutput(containing: "\n")
            let line = try #require(cli.standardOutput.split(separator: "\n").first { $0.hasPrefix(marker) })
            let url = String(line.dropFirst(marker.count))
            #expect(url.hasPrefix("\(provider.issuer)/authorize?"), "\(url)")
            try await cli.waitForError(containing: "Waiting for the browser on http://127.0.0.1:")

            // The browser: the provider's answer at Keyway's callback, sent on to the loopback URI.
            let (code, state) = try provider.issueCode(for: FederationHostedLoginTests.ada, authorizationURL: url)
            let callback = try await server.request("GET", "/v1/federation/callback?code=\(code)&state=\(state)")
            #expect(callback.status == 303)
            let back = try #require(callback.headers["location"].flatMap { URLComponents(string: $0) })
            #expect(back.host == "127.0.0.1" && back.path == "/callback", "\(back)")
            let port = try #require(back.port)
            let page = try await RawHTTPClient.send(
                method: "GET", host: "127.0.0.1", port: port, path: "\(back.path)?\(back.percentEncodedQuery ?? "")",
                headers: ["Host": "127.0.0.1:\(port)"], body: nil)
            #expect(String(decoding: page.body, as: UTF8.self).contains("You can close this window"))

            // Signed in with the identity the provider vouched for.
            let status = try await cli.waitForExit()
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains("Signed in as ada@example.com."), "\(cli.standardError)")
            #expect(try await server.rowCount("federated_identities WHERE subject = 'acme-user-1'") == 1)
        }
        }
    }
}
