import Foundation
@testable import Keyway
import KeywayProtocol
import Testing

@Suite("Browser sign-in")
struct BrowserSignInTests {
    let redirect = URL(string: "com.example.app:/callback")!

    /// A browser whose server answers with a code, the request's state and `iss` (or what
    /// `query` says instead).
    func browser(query: (@Sendable (AuthorizationRequestQuery) -> String)? = nil) -> FakeBrowser {
        FakeBrowser { url, callbackURL in
            let parameters = AuthorizationRequestQuery(url.queryParameters)
            let issuer = ScriptedProvider.issuer.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let answer = query?(parameters) ?? "code=ac_1&state=\(parameters.state)&iss=\(issuer)"
            return URL(string: "\(callbackURL.absoluteString)?\(answer)")!
        }
    }

    @Test func signsInAndSavesTheSession() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata()
        let keyway = try provider.keyway(completedSignIns: .saveToSession)
        let events = RecordingEventDelegate()
        keyway.eventDelegate = events
        let session = keyway.session
        let opened = LockedBox<URL?>(nil)
        let browser = FakeBrowser { url, callbackURL in
            opened.set(url)
            let query = AuthorizationRequestQuery(url.queryParameters)
            try provider.serveTokens(nonce: query.nonce)
            return URL(string: "\(callbackURL.absoluteString)?code=ac_1&state=\(query.state)&iss=https%3A%2F%2Fauth.example.com")!
        }
        let tokens = try await keyway.browser.signIn(
            using: browser, options: BrowserSignInOptions(redirectURI: redirect))
        #expect(tokens.idToken.subject == "usr_1")
        let url = try #require(opened.value)
        #expect(url.absoluteString.hasPrefix("https://auth.example.com/oauth2/authorize?"))
        #expect(tokens.idToken.nonce == url.queryParameters["nonce"])
        let form = provider.tokenForm()
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["code"] == "ac_1")
        #expect(form["redirect_uri"] == "com.example.app:/callback")
        #expect(form["code_verifier"]?.count == 43)
        #expect(try await session.currentAccount() == "usr_1")
        #expect(session.state.snapshot.auth.isAuthenticated)
        let names = events.events.map(\.name)
        #expect(names.contains(.signInStarted) && names.contains(.signInCompleted))
        #expect(events.events.last { $0.name == .signInCompleted }?.data["via"] == "browser")
    }

    @Test func anIDTokenWithAnotherNonceIsRefused() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata()
        try provider.serveTokens(nonce: "someone-elses-nonce")
        let keyway = try provider.keyway()
        await #expect(throws: KeywayError.self) {
            try await keyway.browser.signIn(using: browser(), options: BrowserSignInOptions(redirectURI: redirect))
        }
    }

    @Test func anIDTokenWithoutTheNonceIsRefused() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata()
        try provider.serveTokens(nonce: nil)
        let keyway = try provider.keyway()
        await #expect(throws: KeywayError.self) {
            try await keyway.browser.signIn(using: browser(), options: BrowserSignInOptions(redirectURI: redirect))
        }
    }

    @Test func theServersErrorIsThrownAndNothingIsRedeemed() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata()
        let keyway = try provider.keyway()
        let events = RecordingEventDelegate()
        keyway.eventDelegate = events
        let refusing = browser { query in
            "error=invalid_scope&error_description=Unknown%20scope.&state=\(query.state)&iss=https%3A%2F%2Fauth.example.com"
        }
        await #expect(
            throws: BrowserSignInError.authorizationFailed(error: "invalid_scope", description: "Unknown scope.", uri: nil)
        ) {
            try await keyway.browser.signIn(using: refusing, options: BrowserSignInOptions(redirectURI: redirect))
        }
        #expect(provider.transport.requests(to: "POST /oauth2/token").isEmpty)
        #expect(events.events.last?.name == .signInFailed)
        #expect(events.events.last?.data["code"] == "invalid_scope")
    }

    @Test func aCallbackWithoutIssIsRefusedWhenDiscoveryPromisesIt() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata(issSupported: true)
        let keyway = try provider.keyway()
        await #expect(throws: BrowserSignInError.issuerMissing) {
            try await keyway.browser.signIn(
                using: browser { "code=ac_1&state=\($0.state)" }, options: BrowserSignInOptions(redirectURI: redirect))
        }
    }

    @Test func withoutThePromiseACallbackWithoutIssIsAccepted() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata(issSupported: false)
        let keyway = try provider.keyway()
        let request = try await keyway.browser.authorizationRequest(BrowserSignInOptions(redirectURI: redirect))
        #expect(!request.requiresIssuer)
        try provider.serveTokens(nonce: request.nonce)
        let callback = URL(string: "com.example.app:/callback?code=ac_1&state=\(request.state)")!
        let tokens = try await keyway.browser.complete(request, callbackURL: callback)
        #expect(tokens.idToken.subject == "usr_1")
    }

    @Test func aFlowAPIEndpointInDiscoveryFallsBackToTheBrowserEndpoint() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata(authorizationEndpoint: "\(ScriptedProvider.issuer)/v1/flows")
        let keyway = try provider.keyway()
        let request = try await keyway.browser.authorizationRequest(BrowserSignInOptions(redirectURI: redirect))
        #expect(request.authorizationEndpoint.absoluteString == "https://auth.example.com/oauth2/authorize")
        let configured = try await keyway.browser.authorizationRequest(
            BrowserSignInOptions(redirectURI: redirect, authorizationEndpoint: URL(string: "https://login.example.com/authorize")!))
        #expect(configured.authorizationEndpoint.absoluteString == "https://login.example.com/authorize")
    }

    @Test func aClosedBrowserIsACancellation() async throws {
        let provider = ScriptedProvider()
        provider.serveMetadata()
        let keyway = try provider.keyway()
        let closed = FakeBrowser { _, _ in throw BrowserSignInError.cancelled }
        await #expect(throws: BrowserSignInError.cancelled) {
            try await keyway.browser.signIn(using: closed, options: BrowserSignInOptions(redirectURI: redirect))
        }
        let failing = FakeBrowser { _, _ in throw CocoaError(.fileNoSuchFile) }
        do {
            try await keyway.browser.signIn(using: failing, options: BrowserSignInOptions(redirectURI: redirect))
            Issue.record("no error")
        } catch let error as BrowserSignInError {
            guard case .browserFailed = error else { Issue.record("\(error)"); return }
        }
    }
}

/// The parameters of an authorize URL a test's browser reads.
struct AuthorizationRequestQuery: Sendable {
    let state: String
    let nonce: String?

    init(_ parameters: [String: String]) {
        state = parameters["state"] ?? ""
        nonce = parameters["nonce"]
    }
}

/// A value shared with a `@Sendable` closure.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}
