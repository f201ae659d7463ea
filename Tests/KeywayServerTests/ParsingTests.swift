import Foundation
import Testing

@testable import KeywayServer

@Suite("Input parsing")
struct ParsingTests {
    @Test func formBodies() throws {
        let form = try FormURLEncoded.parse(Data("grant_type=authorization_code&code=a%2Bb&redirect_uri=&x=a+b".utf8))
        #expect(form == ["grant_type": "authorization_code", "code": "a+b", "x": "a b"])
        #expect(throws: FormURLEncoded.ParseError.duplicate("a")) { try FormURLEncoded.parse(Data("a=1&a=2".utf8)) }
        #expect(throws: FormURLEncoded.ParseError.malformed) { try FormURLEncoded.parse(Data("a=%ZZ".utf8)) }
    }

    @Test func basicCredentials() {
        let header = "Basic " + Data("cfg%3A1:s%20ecret".utf8).base64EncodedString()
        let parsed = ClientAuthenticator.parseBasic(header)
        #expect(parsed?.id == "cfg:1")
        #expect(parsed?.secret == "s ecret")
        #expect(ClientAuthenticator.parseBasic("Bearer abc") == nil)
        #expect(ClientAuthenticator.parseBasic("Basic !!!") == nil)
        #expect(ClientAuthenticator.parseBasic("Basic " + Data("nocolon".utf8).base64EncodedString()) == nil)
    }

    @Test(arguments: [
        ("Alice@Example.COM", "alice@example.com"),
        ("  bob@example.org ", "bob@example.org"),
        ("a.b+tag@sub.example.co", "a.b+tag@sub.example.co"),
    ])
    func validEmails(input: String, normalized: String) {
        #expect(EmailAddress.normalize(input) == normalized)
    }

    @Test(arguments: ["", "alice", "alice@", "@example.com", "a@b", "a@@b.com", "a b@c.com", "a@b..com", "<a>@b.com"])
    func invalidEmails(input: String) {
        #expect(EmailAddress.normalize(input) == nil)
    }

    @Test func masking() {
        #expect(EmailAddress.mask("alice@example.com") == "a•••@example.com")
    }

    @Test func databaseURLs() throws {
        #expect(try DatabaseLocation(parsing: "sqlite:data/k.sqlite") == .sqlite(path: "data/k.sqlite"))
        #expect(try DatabaseLocation(parsing: "sqlite:///var/k.sqlite") == .sqlite(path: "/var/k.sqlite"))
        #expect(throws: ConfigurationError.self) { try DatabaseLocation(parsing: "mysql://x") }
        #expect(throws: ConfigurationError.self) { try DatabaseLocation(parsing: "sqlite:") }
    }

    @Test func traceIds() {
        #expect(TraceID.generate().count == 32)
        #expect(TraceID.isAcceptable("abc-123_XYZ"))
        #expect(!TraceID.isAcceptable("short"))
        #expect(!TraceID.isAcceptable("has space in it"))
        #expect(!TraceID.isAcceptable(String(repeating: "a", count: 65)))
    }

    @Test func configIds() {
        #expect(DevProvisioning.isValidConfigId("cfg_dev.1-a"))
        #expect(!DevProvisioning.isValidConfigId("x"))
        #expect(!DevProvisioning.isValidConfigId("cfg dev"))
    }
}
