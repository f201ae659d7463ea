import Foundation
@testable import Keyway
import KeywayProtocol
import Testing

@Suite("Browser callback parsing")
struct BrowserCallbackTests {
    let issuer = "https://auth.example.com"

    func request(requiresIssuer: Bool = true, redirect: String = "com.example.app:/callback") throws -> AuthorizationRequest {
        try AuthorizationRequest(
            issuer: issuer, authorizationEndpoint: URL(string: "\(issuer)/oauth2/authorize")!, clientID: "cfg_test",
            options: BrowserSignInOptions(redirectURI: URL(string: redirect)!), requiresIssuer: requiresIssuer)
    }

    func callback(_ request: AuthorizationRequest, _ query: String) -> URL {
        URL(string: "\(request.redirectURI.absoluteString)?\(query)")!
    }

    func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test func aSuccessfulCallbackGivesTheCode() throws {
        let made = try request()
        let response = try made.response(
            from: callback(made, "code=ac_123&state=\(made.state)&iss=\(encoded(issuer))"))
        #expect(response.code.revealed == "ac_123")
        #expect(response.state == made.state)
        #expect(response.issuer == issuer)
    }

    @Test func anotherStateIsRefused() throws {
        let made = try request()
        #expect(throws: BrowserSignInError.stateMismatch) {
            try made.response(from: callback(made, "code=ac_123&state=forged&iss=\(encoded(issuer))"))
        }
        #expect(throws: BrowserSignInError.stateMismatch) {
            try made.response(from: callback(made, "code=ac_123&iss=\(encoded(issuer))"))
        }
    }

    @Test func anotherIssuerIsRefused() throws {
        let made = try request(requiresIssuer: false)
        #expect(throws: BrowserSignInError.issuerMismatch(expected: issuer, received: "https://evil.example.com")) {
            try made.response(
                from: callback(made, "code=ac_123&state=\(made.state)&iss=\(encoded("https://evil.example.com"))"))
        }
    }

    @Test func aMissingIssuerIsRefusedOnlyWhenTheServerPromisesIt() throws {
        let strict = try request(requiresIssuer: true)
        #expect(throws: BrowserSignInError.issuerMissing) {
            try strict.response(from: callback(strict, "code=ac_123&state=\(strict.state)"))
        }
        let lenient = try request(requiresIssuer: false)
        #expect(try lenient.response(from: callback(lenient, "code=ac_123&state=\(lenient.state)")).issuer == nil)
    }

    @Test func anErrorIsMappedWithTheServersCodeAndDescription() throws {
        let made = try request()
        let query = "error=access_denied&error_description=The+user%20said%20no.&state=\(made.state)&iss=\(encoded(issuer))"
        #expect(
            throws: BrowserSignInError.authorizationFailed(
                error: "access_denied", description: "The user said no.", uri: nil)
        ) { try made.response(from: callback(made, query)) }
        do {
            _ = try made.response(from: callback(made, "error=temporarily_unavailable&state=\(made.state)&iss=\(encoded(issuer))"))
            Issue.record("no error")
        } catch {
            #expect(error.oauthError == "temporarily_unavailable")
            #expect(error.recovery == .retry)
        }
    }

    @Test func anErrorWithAnotherStateIsAStateMismatch() throws {
        let made = try request()
        #expect(throws: BrowserSignInError.stateMismatch) {
            try made.response(from: callback(made, "error=access_denied&state=forged&iss=\(encoded(issuer))"))
        }
    }

    @Test func aMissingCodeIsAnError() throws {
        let made = try request()
        #expect(throws: BrowserSignInError.missingCode) {
            try made.response(from: callback(made, "state=\(made.state)&iss=\(encoded(issuer))"))
        }
        #expect(throws: BrowserSignInError.missingCode) {
            try made.response(from: callback(made, "code=&state=\(made.state)&iss=\(encoded(issuer))"))
        }
    }

    @Test func aCallbackElsewhereOrWithRepeatedParametersIsRefused() throws {
        let made = try request(redirect: "http://127.0.0.1:50000/callback")
        let query = "code=ac_123&state=\(made.state)&iss=\(encoded(issuer))"
        for elsewhere in [
            "http://127.0.0.1:50001/callback?\(query)", "http://127.0.0.1:50000/other?\(query)",
            "https://127.0.0.1:50000/callback?\(query)",
        ] {
            #expect(throws: BrowserSignInError.self) { try made.response(from: URL(string: elsewhere)!) }
        }
        #expect(throws: BrowserSignInError.self) {
            try made.response(from: callback(made, "code=a&code=b&state=\(made.state)&iss=\(encoded(issuer))"))
        }
        #expect(try made.response(from: callback(made, query)).code.revealed == "ac_123")
    }
}
