import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport
import KeywayUI
import Testing

/// Signing in with an upstream provider through the SDK, over real HTTP: the `redirect` prompt,
/// a forged return refused before any request, the browser played against the stand-in provider
/// and Keyway's browser callback, then `oauthCallback(url:)` and the redeemed tokens; and the
/// same through the screen model with a browser session.
@Suite("Federation through the SDK")
struct FederationSDKTests {
    /// Plays the browser: the provider answers `url` for `claims`, the provider's redirect reaches
    /// Keyway's browser callback, whose `Location` is where the browser goes next (the app).
    static func browse(
        _ url: URL, provider: StandInOIDCProvider, server: TestServer, claims: [String: JSONValue]
    ) async throws -> URL {
        let (code, state) = try provider.issueCode(for: claims, authorizationURL: url.absoluteString)
        let back = try await server.request(
            "GET", "/v1/federation/callback?code=\(code)&state=\(state)", headers: [:])
        #expect(back.status == 303, "\(back.status)")
        return try #require(back.headers["location"].flatMap(URL.init(string:)))
    }

    static let ada: [String: JSONValue] = [
        "sub": .string("acme-user-1"), "email": .string("ada@example.com"), "email_verified": .bool(true),
    ]

    @Test func theSDKFollowsTheRedirectAndRefusesAForgedReturn() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await FederationFlowTests().prepare(server, provider: provider)
            try await server.registerLoginRedirectURI("com.example.app:/callback")
            let keyway = try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient))
            await keyway.flow.start(
                identifier: "ada@example.com",
                options: FlowStartOptions(redirectURI: URL(string: "com.example.app:/callback")!))
            guard case (let methods, _, _)? = keyway.flow.currentUpdate.prompt?.selectMethod else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            let acme = try #require(methods.first { $0.type == .federation && $0.provider?.id == "acme" })
            #expect(acme.provider?.label == "Continue with Acme")
            await keyway.flow.selectMethod(id: acme.id)
            guard case (let url, let returnScheme, let shown)? = keyway.flow.currentUpdate.prompt?.redirect else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            #expect(returnScheme == "com.example.app")
            #expect(shown.id == "acme")
            #expect(url.absoluteString.hasPrefix(provider.issuer))

            let returned = try await Self.browse(url, provider: provider, server: server, claims: Self.ada)
            #expect(returned.scheme == "com.example.app")

            // A return of another flow (a forged state) or another app: refused here, the flow untouched.
            var forged = URLComponents(url: returned, resolvingAgainstBaseURL: false)!
            forged.queryItems = [URLQueryItem(name: "state", value: "fst_forged")]
            await keyway.flow.oauthCallback(url: forged.url!)
            #expect(keyway.flow.currentUpdate.refusal == .invalidCallback)
            await keyway.flow.oauthCallback(url: URL(string: "com.evil.app:/callback?\(returned.query ?? "")")!)
            #expect(keyway.flow.currentUpdate.refusal == .invalidCallback)
            #expect(try await server.rowCount("federated_identities") == 0)

            // The real return: signed in, the identity linked by the verified address.
            await keyway.flow.oauthCallback(url: returned)
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            let tokens = try await keyway.tokens.exchange(try #require(await keyway.flow.completion))
            #expect(tokens.idToken.email == "ada@example.com")
            #expect(try await server.rowCount("federated_identities") == 1)
        }
        }
    }

    @Test func aProviderSignInThatFailsBringsBackTheChoiceWithTheReason() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await FederationFlowTests().prepare(server, provider: provider)
            try await server.registerLoginRedirectURI("com.example.app:/callback")
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL,
                options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient))
            await keyway.flow.start(
                identifier: "ada@example.com",
                options: FlowStartOptions(redirectURI: URL(string: "com.example.app:/callback")!))
            guard case (let methods, _, _)? = keyway.flow.currentUpdate.prompt?.selectMethod,
                let acme = methods.first(where: { $0.provider?.id == "acme" })
            else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            await keyway.flow.selectMethod(id: acme.id)
            guard case (let url, _, _)? = keyway.flow.currentUpdate.prompt?.redirect else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            // The provider's ID token is for another client: the server refuses it and goes back to
            // the choice; the SDK shows that choice, with the reason, instead of the dead redirect.
            var claims = Self.ada
            claims["aud"] = .string("someone-else")
            let (code, state) = try provider.issueCode(for: claims, authorizationURL: url.absoluteString)
            await keyway.flow.oauthCallback(code: code, state: state)
            guard case .prompt(let context, let prompt) = keyway.flow.currentUpdate, let again = prompt.selectMethod?.methods else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            #expect(context.messages.contains { $0.code == "federation_failed" && $0.level == "error" })
            #expect(again.contains { $0.type == .emailOtp })
            #expect(try await server.rowCount("federated_identities") == 0)
            // Another method still signs in.
            let email = try #require(again.first { $0.type == .emailOtp })
            await keyway.flow.selectMethod(id: email.id)
            await keyway.flow.submitCode(try await server.latestCode(to: "ada@example.com"))
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
        }
        }
    }

    /// A browser session that plays the browser against the stand-in provider and the server.
    struct PlayedBrowser: BrowserSession {
        let provider: StandInOIDCProvider
        let server: TestServer

        func authorize(url: URL, callbackURL: URL) async throws -> URL {
            try await FederationSDKTests.browse(url, provider: provider, server: server, claims: FederationSDKTests.ada)
        }
    }

    @Test func theScreenModelOpensTheProviderAndSignsIn() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await FederationFlowTests().prepare(server, provider: provider)
            try await server.registerLoginRedirectURI("com.example.app:/callback")
            try await Self.signInWithScreens(provider: provider, server: server)
        }
        }
    }

    /// The screen model's side of ``theScreenModelOpensTheProviderAndSignsIn()``.
    @MainActor
    static func signInWithScreens(provider: StandInOIDCProvider, server: TestServer) async throws {
        let keyway = try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient))
        let model = KeywayScreenModel(keyway: keyway)
        await model.start(
            identifier: "ada@example.com",
            options: FlowStartOptions(redirectURI: URL(string: "com.example.app:/callback")!))
        let choice = try #require(model.screen.action("selectMethod:federation:acme"))
        #expect(choice.label == "Continue with Acme")
        #expect(choice.iconURL == URL(string: "https://cdn.example.com/acme.svg"))
        await model.perform(choice)
        #expect(model.screen.kind == .step(.redirect))
        #expect(model.screen.primaryAction?.role == .openBrowser)
        await model.openBrowser(using: PlayedBrowser(provider: provider, server: server))
        #expect(model.screen.kind == .completed, "\(model.screen)")
        #expect(model.tokens?.idToken.email == "ada@example.com")
    }
}

extension FlowUpdate {
    /// The error code, when this update is an error.
    fileprivate var refusal: ProblemCode? {
        if case .error(let code, _, _, _, _, _) = self { return code }
        return nil
    }
}
