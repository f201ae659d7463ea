import Foundation
@testable import Keyway
import KeywayTestSupport
import Testing

/// `keyway login --browser` as a real process against the real server, the test playing the
/// browser and the authorization server: it reads the authorization URL the CLI prints, obtains a
/// code for it through the flow API (the same PKCE challenge, nonce, state and loopback redirect
/// URI), and delivers the redirect to the CLI's loopback listener.
@Suite("CLIBrowserLogin: keyway login --browser and its loopback redirect")
struct CLIBrowserLoginTests {
    private func start(_ server: TestServer, _ extra: [String] = []) throws -> CLIProcess {
        try CLIProcess(
            arguments: ["login", "--browser", "--no-open", "--server", server.baseURL.absoluteString] + extra,
            environment: ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_PRINT_AUTHORIZATION_URL": "1"])
    }

    /// The URL on the CLI's `keyway-authorization-url:` line, and its parameters.
    private func authorizationURL(_ cli: CLIProcess) async throws -> (URL, [String: String]) {
        try await cli.waitForOutput(containing: "\n")
        let marker = "keyway-authorization-url: "
        guard let line = cli.standardOutput.split(separator: "\n").first(where: { $0.hasPrefix(marker) }),
            let url = URL(string: String(line.dropFirst(marker.count)))
        else { throw TestFailure("No authorization URL line in: \(cli.standardOutput)") }
        var parameters: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            parameters[item.name] = item.value
        }
        return (url, parameters)
    }

    /// Requests `redirect?query` from the CLI's listener, as the browser does after the redirect.
    private func deliver(_ redirect: String, _ query: String) async throws -> RawHTTPClient.Response {
        let components = try #require(URLComponents(string: redirect))
        return try await RawHTTPClient.send(
            method: "GET", host: "127.0.0.1", port: try #require(components.port), path: "\(components.path)?\(query)",
            headers: ["Host": "127.0.0.1:\(components.port ?? 0)"], body: nil)
    }

    private func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }

    @Test func theRedirectWithACodeSignsTheCLIIn() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            try await server.registerLoginRedirectURI("http://127.0.0.1/callback")
            let cli = try start(server, ["--json", "browser@example.com"])
            let (url, parameters) = try await authorizationURL(cli)
            #expect(url.path == "/oauth2/authorize")
            #expect(parameters["response_type"] == "code")
            #expect(parameters["client_id"] == TestServer.configId)
            #expect(parameters["code_challenge_method"] == "S256")
            #expect(parameters["login_hint"] == "browser@example.com")
            #expect(parameters["response_mode"] == "query")
            let redirect = try #require(parameters["redirect_uri"])
            #expect(redirect.hasPrefix("http://127.0.0.1:") && redirect.hasSuffix("/callback"))

            // The authorization server's part, through the flow API: the user proves the address.
            let keyway = try makeKeyway(server, clock: clock)
            let options = FlowStartOptions(
                scope: parameters["scope"], nonce: .value(try #require(parameters["nonce"])),
                redirectURI: URL(string: redirect), state: parameters["state"])
            await keyway.flow.start(
                identifier: "browser@example.com", codeChallenge: parameters["code_challenge"], options: options)
            await keyway.flow.submitCode(try await server.latestCode(to: "browser@example.com"))
            let completion = try #require(await keyway.flow.completion)
            #expect(completion.codeVerifier == nil)

            let page = try await deliver(
                redirect,
                "code=\(encoded(completion.authCode.revealed))&state=\(encoded(completion.state ?? ""))"
                    + "&iss=\(encoded(server.baseURL.absoluteString))")
            #expect(page.status == 200)
            let shown = String(decoding: page.body, as: UTF8.self)
            // Said once, on a styled page.
            #expect(shown.components(separatedBy: "close this window").count == 2, "\(shown)")
            #expect(shown.contains("<style>") && shown.contains("prefers-color-scheme: dark"))
            let status = try await cli.waitForExit()
            #expect(status == 0, "stderr: \(cli.standardError)")
            let json = cli.standardOutput.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
            let tokens = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            #expect((tokens?["id_token"] as? String)?.split(separator: ".").count == 3)
            #expect(tokens?["refresh_token"] is String)
        }
    }

    @Test("Through the hosted pages: the user signs in on the server's pages, the CLI gets the redirect")
    func throughTheHostedPages() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            // The dev application registers http://127.0.0.1/callback (any port) from its creation.
            let cli = try start(server, ["--json", "pages@example.com"])
            let (url, _) = try await authorizationURL(cli)
            let agent = PageAgent(server: server)
            let first = try await agent.open(url.path + "?" + (url.query ?? ""))
            // login_hint fills in the identifier.
            #expect(first.form("/login/identify")?.values["identifier"] == "pages@example.com")
            let (page, steps) = try await agent.signIn(from: first, email: "pages@example.com")
            #expect(steps.first == "identify")
            let redirect = try #require(page.redirect, "\(page.text)")
            #expect(redirect.queryItems?.first { $0.name == "iss" }?.value == server.baseURL.absoluteString)
            let answer = try await deliver(
                "http://127.0.0.1:\(try #require(redirect.port))\(redirect.path)", try #require(redirect.percentEncodedQuery))
            #expect(String(decoding: answer.body, as: UTF8.self).contains("You can close this window"))
            let status = try await cli.waitForExit()
            #expect(status == 0, "stderr: \(cli.standardError)")
            let json = cli.standardOutput.split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
            let tokens = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            #expect((tokens?["id_token"] as? String)?.split(separator: ".").count == 3)
        }
    }

    @Test func theServersErrorIsPrintedWithItsDescription() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let cli = try start(server)
            let (_, parameters) = try await authorizationURL(cli)
            let page = try await deliver(
                try #require(parameters["redirect_uri"]),
                "error=access_denied&error_description=The%20user%20declined.&state=\(encoded(parameters["state"] ?? ""))"
                    + "&iss=\(encoded(server.baseURL.absoluteString))")
            #expect(String(decoding: page.body, as: UTF8.self).contains("Sign-in not completed"))
            let status = try await cli.waitForExit()
            #expect(status == 1)
            #expect(cli.standardError.contains("Error: the server refused the sign-in: access_denied — The user declined."))
        }
    }

    @Test func aCallbackWithAnotherStateIsRefused() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let cli = try start(server)
            let (_, parameters) = try await authorizationURL(cli)
            _ = try await deliver(try #require(parameters["redirect_uri"]), "code=forged&state=forged&iss=\(encoded(server.baseURL.absoluteString))")
            #expect(try await cli.waitForExit() == 1)
            #expect(cli.standardError.contains("state that is not this sign-in's"))
        }
    }

    @Test func withoutABrowserTheWaitTimesOut() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let cli = try start(server, ["--timeout", "1"])
            #expect(try await cli.waitForExit() == 1)
            #expect(cli.standardError.contains("No answer from the browser within 1 s."))
        }
    }
}
