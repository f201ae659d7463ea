import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import Testing

@Suite("Browser authorization request")
struct BrowserAuthorizationRequestTests {
    let endpoint = URL(string: "https://auth.example.com/oauth2/authorize")!
    let redirect = URL(string: "com.example.app:/callback")!

    func request(
        _ options: BrowserSignInOptions? = nil, endpoint: URL? = nil, random: any KeywayRandom = SystemKeywayRandom()
    ) throws -> AuthorizationRequest {
        try AuthorizationRequest(
            issuer: "https://auth.example.com", authorizationEndpoint: endpoint ?? self.endpoint, clientID: "cfg_test",
            options: options ?? BrowserSignInOptions(redirectURI: redirect), random: random)
    }

    @Test func pkceStateAndNonceAreFreshRandomValues() throws {
        let first = try request()
        let second = try request()
        #expect(first.codeVerifier.revealed.count == 43)
        #expect(PKCE.isValidVerifier(first.codeVerifier.revealed))
        #expect(first.codeChallenge == PKCE.challenge(for: first.codeVerifier.revealed))
        #expect(first.state.count == 43)
        #expect(first.nonce?.count == 43)
        #expect(first.codeVerifier != second.codeVerifier)
        #expect(first.state != second.state)
        #expect(first.nonce != second.nonce)
        #expect(Set([first.state, first.nonce!, first.codeVerifier.revealed]).count == 3)
    }

    @Test func secretsComeFromTheRandomSeam() throws {
        let made = try request(random: CountingRandom())
        // The nonce is drawn first, then the verifier, then the state: 32 bytes each.
        #expect(made.nonce == Base64URL.encode((0..<32).map { UInt8(1 + $0) }))
        #expect(made.codeVerifier.revealed == Base64URL.encode((0..<32).map { UInt8(2 + $0) }))
        #expect(made.state == Base64URL.encode((0..<32).map { UInt8(3 + $0) }))
    }

    @Test func nonceCanBeChosenOrLeftOut() throws {
        #expect(try request(BrowserSignInOptions(redirectURI: redirect, nonce: .value("n-123"))).nonce == "n-123")
        let without = try request(BrowserSignInOptions(redirectURI: redirect, nonce: .omitted))
        #expect(without.nonce == nil)
        #expect(without.url.queryParameters["nonce"] == nil)
    }

    @Test func theURLCarriesEveryParameter() throws {
        let options = BrowserSignInOptions(
            redirectURI: URL(string: "http://127.0.0.1:53121/callback")!, scope: "openid email",
            prompt: [.login, .consent], loginHint: "ada+test@example.com", maxAge: 300, uiLocales: ["fr-CA", "en"])
        let made = try request(options)
        let url = made.url
        #expect(url.absoluteString.hasPrefix("https://auth.example.com/oauth2/authorize?response_type=code&"))
        let query = url.queryParameters
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "cfg_test")
        #expect(query["redirect_uri"] == "http://127.0.0.1:53121/callback")
        #expect(query["scope"] == "openid email")
        #expect(query["state"] == made.state)
        #expect(query["nonce"] == made.nonce)
        #expect(query["code_challenge"] == made.codeChallenge)
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["prompt"] == "login consent")
        #expect(query["login_hint"] == "ada+test@example.com")
        #expect(query["max_age"] == "300")
        #expect(query["ui_locales"] == "fr-CA en")
        #expect(query["response_mode"] == "query")
        #expect(query["code_verifier"] == nil)
    }

    @Test func valuesArePercentEncodedStrictly() throws {
        let options = BrowserSignInOptions(
            redirectURI: URL(string: "https://app.example.com/cb?x=1")!, scope: "openid email",
            loginHint: "ada+test@example.com é&=")
        let raw = try request(options).url.absoluteString
        #expect(raw.contains("scope=openid%20email&"))
        #expect(raw.contains("login_hint=ada%2Btest%40example.com%20%C3%A9%26%3D&"))
        #expect(raw.contains("redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb%3Fx%3D1&"))
        #expect(!raw.contains("+"))
    }

    @Test func anEndpointWithAQueryKeepsIt() throws {
        let made = try request(endpoint: URL(string: "https://auth.example.com/authorize?tenant=a")!)
        #expect(made.url.absoluteString.hasPrefix("https://auth.example.com/authorize?tenant=a&response_type=code&"))
    }

    @Test func malformedOptionsAreRefused() throws {
        let refused: [BrowserSignInOptions] = [
            BrowserSignInOptions(redirectURI: redirect, scope: "email"),
            BrowserSignInOptions(redirectURI: redirect, scope: "openid \"quoted\""),
            BrowserSignInOptions(redirectURI: redirect, prompt: [.none, .login]),
            BrowserSignInOptions(redirectURI: redirect, maxAge: -1),
            BrowserSignInOptions(redirectURI: redirect, loginHint: ""),
            BrowserSignInOptions(redirectURI: redirect, nonce: .value("")),
            BrowserSignInOptions(redirectURI: URL(string: "com.example.app:/callback#frag")!),
        ]
        for options in refused {
            #expect(throws: KeywayError.self) { try request(options) }
        }
        #expect(throws: KeywayError.self) { try request(endpoint: URL(string: "ftp://auth.example.com/authorize")!) }
    }
}
