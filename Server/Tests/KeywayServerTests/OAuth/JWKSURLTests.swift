import Foundation
import Testing

@testable import KeywayServer

/// Which key set URLs the server fetches: `https`, or `http` on a loopback host — all of
/// 127.0.0.0/8, as everywhere else in the server.
@Suite struct JWKSURLTests {
    @Test(arguments: [
        "https://idp.example.com/jwks", "http://127.0.0.1:8080/jwks", "http://127.0.0.2:9000/jwks",
        "http://127.255.0.9/jwks", "http://localhost/jwks", "http://[::1]:8443/jwks",
    ])
    func accepted(_ url: String) throws {
        #expect(JWKSFetcher.isAllowed(try #require(URL(string: url))))
        #expect(IdentityProviderRules.isValidIssuer(url.replacingOccurrences(of: "/jwks", with: "")))
    }

    @Test(arguments: [
        "http://idp.example.com/jwks", "http://10.0.0.1/jwks", "http://128.0.0.1/jwks", "http://127.0.0.1.example.com/jwks",
        "https://user:secret@idp.example.com/jwks", "ftp://127.0.0.1/jwks",
    ])
    func refused(_ url: String) throws {
        #expect(!JWKSFetcher.isAllowed(try #require(URL(string: url))))
    }
}
