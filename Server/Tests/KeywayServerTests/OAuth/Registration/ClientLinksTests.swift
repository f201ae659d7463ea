import Foundation
import Testing

@testable import KeywayServer

/// The logo and pages a client registers: absolute `https` URLs with a host, without credentials,
/// whitespace or control characters, of at most 2,000 characters.
@Suite("A registered client's logo and pages")
struct ClientLinksTests {
    @Test(arguments: [
        "https://client.example.com/logo.png", "https://client.example.com", "https://client.example.com:8443/a?b=c",
    ])
    func accepted(_ url: String) {
        #expect(ClientLinks.problem(with: url, member: "logo_uri") == nil)
    }

    @Test(arguments: [
        "http://client.example.com/logo.png", "javascript:alert(1)", "data:image/png;base64,AAAA", "/logo.png",
        "https:///logo.png", "https://client.example.com/a b", "https://client.example.com/\u{7}",
        "https://user:pw@client.example.com/", "https://user@client.example.com/",
    ])
    func refused(_ url: String) {
        #expect(ClientLinks.problem(with: url, member: "logo_uri") != nil, "\(url)")
    }

    @Test func longURLsAreRefusedAndTheMemberIsNamed() {
        let long = "https://client.example.com/" + String(repeating: "a", count: 2000)
        #expect(ClientLinks.problem(with: long, member: "tos_uri")?.contains("tos_uri") == true)
    }

    @Test func storedAsTheirRegistrationMembers() throws {
        let links = ClientLinks(logo: "https://c.example/l.png", home: nil, policy: "https://c.example/p", terms: nil)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(links)) as? [String: Any])
        #expect(json["logo_uri"] as? String == "https://c.example/l.png" && json["policy_uri"] as? String == "https://c.example/p")
        #expect(try JSONDecoder().decode(ClientLinks.self, from: JSONEncoder().encode(links)) == links)
        #expect(ClientLinks().isEmpty && !links.isEmpty)
    }
}
