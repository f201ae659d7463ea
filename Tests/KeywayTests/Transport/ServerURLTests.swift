import Foundation
import Keyway
import KeywayProtocol
import Testing

@Suite("Base URL normalization")
struct ServerURLTests {
    @Test(arguments: [
        ("https://auth.example.com", "https://auth.example.com"),
        ("https://auth.example.com/", "https://auth.example.com"),
        ("https://auth.example.com/v1", "https://auth.example.com"),
        ("https://auth.example.com/v1/", "https://auth.example.com"),
        ("https://auth.example.com//", "https://auth.example.com"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080"),
        ("https://example.com/auth", "https://example.com/auth"),
        ("https://example.com/auth/", "https://example.com/auth"),
        ("https://example.com/auth/v1", "https://example.com/auth"),
        ("https://example.com/auth/v1/", "https://example.com/auth"),
        ("HTTPS://Auth.Example.com/v1", "https://auth.example.com"),
    ])
    func normalizes(input: String, root: String) throws {
        let url = try ServerURL(URL(string: input)!)
        #expect(url.root.absoluteString.lowercased() == root.lowercased())
        #expect(url.appending(path: "/v1/flows").absoluteString.lowercased() == (root + "/v1/flows").lowercased())
    }

    @Test func neverAppendsAnythingElse() throws {
        let url = try ServerURL(URL(string: "https://auth.example.com/v1")!)
        #expect(url.appending(path: "/oauth2/token").absoluteString == "https://auth.example.com/oauth2/token")
        #expect(url.root.path.isEmpty)
    }

    @Test(arguments: [
        "ftp://auth.example.com", "https://auth.example.com?tenant=1", "https://auth.example.com/#x",
        "https://user:pw@auth.example.com", "file:///tmp/x",
    ])
    func rejects(input: String) {
        #expect(throws: KeywayError.self) { try ServerURL(URL(string: input)!) }
    }

    @Test func resolvesHrefsBelowTheRootOnly() throws {
        let url = try ServerURL(URL(string: "https://example.com/auth/v1/")!)
        #expect(url.resolve(href: "/v1/flows/f1/code")?.absoluteString == "https://example.com/auth/v1/flows/f1/code")
        #expect(url.resolve(href: "https://example.com/auth/v1/flows/f1")?.absoluteString
            == "https://example.com/auth/v1/flows/f1")
        #expect(url.resolve(href: "https://evil.example.net/v1/flows/f1") == nil)
        #expect(url.resolve(href: "http://example.com/v1/flows/f1") == nil)
    }

    @Test func keywayRejectsEmptyConfigId() {
        #expect(throws: KeywayError.self) {
            try KeywayClient(configID: "  ", baseURL: URL(string: "https://auth.example.com")!)
        }
    }

    @Test func aPathAURLCannotHoldAsItIsIsEncodedNotTrapped() throws {
        let url = try ServerURL(URL(string: "https://auth.example.com")!)
        #expect(url.appending(path: "/v1/flows/a b").absoluteString == "https://auth.example.com/v1/flows/a%20b")
        #expect(url.appending(path: "/v1/flows/é\u{0}%").absoluteString.hasPrefix("https://auth.example.com/v1/flows/"))
    }
}
