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
        // A `%` needs two hexadecimal digits; the octets must be UTF-8, raw or escaped.
        for malformed in ["a=%", "a=%4", "a=b%", "%=1", "a=%E9", "a=%C3"] {
            #expect(throws: FormURLEncoded.ParseError.malformed, "\(malformed)") { try FormURLEncoded.parse(Data(malformed.utf8)) }
        }
        #expect(throws: FormURLEncoded.ParseError.malformed) { try FormURLEncoded.parse(Data([0x61, 0x3D, 0xE9])) }
        let decoded = try FormURLEncoded.parse(Data("name=%C3%a9t%C3%A9&sp=a%20b+c&eq=a%3Db&amp=%26&flag&&end=1".utf8))
        #expect(decoded == ["name": "été", "sp": "a b c", "eq": "a=b", "amp": "&", "end": "1"])
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
        #expect(PhoneNumber.mask("+15550109967") == "+1••••••••67")
        #expect(PhoneNumber.mask("+4915112345678") == "+4••••••••••78")
    }

    @Test func emailsAreFoldedToNFKC() {
        // A full-width "ａ" and the ligature "ﬁ" are the same address as their plain spellings.
        #expect(EmailAddress.normalize("ａlice@example.com") == "alice@example.com")
        #expect(EmailAddress.normalize("ﬁona@example.com") == "fiona@example.com")
    }

    @Test(arguments: [
        ("+1 (555) 010-9967", "+15550109967"),
        ("+49 151 1234 5678", "+4915112345678"),
        ("+44.20.7946.0018", "+442079460018"),
        ("＋３３ ６ １２ ３４ ５６ ７８", "+33612345678"),
    ])
    func validPhones(input: String, normalized: String) {
        #expect(PhoneNumber.normalize(input) == normalized)
    }

    @Test(arguments: ["", "5550109967", "+0 555 010 9967", "+1 555", "+1234567890123456", "+1 555 010 99a7", "+1/555"])
    func invalidPhones(input: String) {
        #expect(PhoneNumber.normalize(input) == nil)
    }

    @Test func databaseURLs() throws {
        #expect(try DatabaseLocation(parsing: "sqlite:data/k.sqlite") == .sqlite(path: "data/k.sqlite"))
        #expect(try DatabaseLocation(parsing: "sqlite:///var/k.sqlite") == .sqlite(path: "/var/k.sqlite"))
        #expect(throws: ConfigurationError.self) { try DatabaseLocation(parsing: "mysql://x") }
        #expect(throws: ConfigurationError.self) { try DatabaseLocation(parsing: "sqlite:") }
        let postgres = try DatabaseLocation(parsing: "postgres://kw:p%40ss@db.example.com:6543/keyway?sslmode=require&schema=tenant_a")
        #expect(
            postgres
                == .postgres(
                    PostgresLocation(
                        host: "db.example.com", port: 6543, username: "kw", password: "p@ss", database: "keyway",
                        tls: .require, schema: "tenant_a")))
        // The password never shows.
        #expect(postgres.description == "postgres://kw:********@db.example.com:6543/keyway?sslmode=require&schema=tenant_a")
        #expect(
            try DatabaseLocation(parsing: "postgresql://kw@[::1]/keyway")
                == .postgres(PostgresLocation(host: "::1", username: "kw", database: "keyway")))
        for bad in [
            "postgres://db.example.com/keyway", "postgres://kw@db.example.com", "postgres://kw@db.example.com/",
            "postgres://kw@db.example.com/keyway?sslmode=maybe", "postgres://kw@db.example.com/keyway?pool=3",
            "postgres://kw@db.example.com/keyway?schema=Bad-Name", "postgres://kw@db.example.com:0/keyway",
            "postgres://kw@db.example.com/keyway?schema=1abc",
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try DatabaseLocation(parsing: bad) }
        }
    }

    @Test func traceIds() {
        #expect(TraceID.generate().count == 32)
        #expect(TraceID.isAcceptable("abc-123_XYZ"))
        #expect(!TraceID.isAcceptable("short"))
        #expect(!TraceID.isAcceptable("has space in it"))
        #expect(!TraceID.isAcceptable(String(repeating: "a", count: 65)))
    }

    @Test func w3cTraceparent() {
        // The example of W3C Trace Context §3.2.
        #expect(
            TraceID.fromTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
                == "4bf92f3577b34da6a3ce929d0e0e4736")
        // A later version may add fields after the flags.
        #expect(
            TraceID.fromTraceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-extra")
                == "4bf92f3577b34da6a3ce929d0e0e4736")
        for bad in [
            "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        ] {
            #expect(TraceID.fromTraceparent(bad) == nil, "\(bad)")
        }
    }

    @Test func configIds() {
        #expect(DevProvisioning.isValidConfigId("cfg_dev.1-a"))
        #expect(!DevProvisioning.isValidConfigId("x"))
        #expect(!DevProvisioning.isValidConfigId("cfg dev"))
    }

    @Test func deviceTimesAreOneToTwelveDigitsAndNothingElse() {
        #expect(ApprovalService.unixSeconds("1700000000") == 1_700_000_000)
        #expect(ApprovalService.unixSeconds("0") == 0)
        #expect(ApprovalService.unixSeconds("999999999999") == 999_999_999_999)
        for refused in [
            "", "-1", "+1", " 1", "1 ", "1e9", "0x10", "-9223372036854775808", "9223372036854775807", "1000000000000",
            "１７００", String(repeating: "9", count: 5_000),
        ] {
            #expect(ApprovalService.unixSeconds(refused) == nil, "\(refused.prefix(30))")
        }
    }

    @Test func loopbackHosts() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "LOCALHOST", "::1", "[::1]"] {
            #expect(LoopbackHost.contains(host), "\(host)")
        }
        for host in ["0.0.0.0", "::", "128.0.0.1", "127.0.0", "127.0.0.1.5", "127.0.0.256", "127.0.0.-1", "localhost.example.com",
            "192.168.1.1", "", "127.0.0.01x"]
        {
            #expect(!LoopbackHost.contains(host), "\(host)")
        }
    }

    @Test func invisibleAndMixedScriptAddressesAreRefused() {
        for refused in [
            "a\u{200B}lice@example.com", "al\u{00AD}ice@example.com", "alice\u{200D}@example.com", "\u{202E}alice@example.com",
            "alice@exa\u{FE0F}mple.com", "alice@example\u{2060}.com", "p\u{0430}ypal@example.com", "alice@p\u{0430}ypal.com",
            "\u{03BF}pen@example.com", "admin@g\u{043E}\u{043E}gle.com",
            // Latin look-alikes of ASCII letters among ASCII letters: dotless i and j, IPA alpha and
            // script g, a small capital.
            "vict\u{0131}m@example.com", "alice@\u{0237}ournal.com", "p\u{0251}ypal@example.com",
            "alice@\u{0261}oogle.com", "\u{1D00}lice@example.com",
        ] {
            #expect(EmailAddress.normalize(refused) == nil, "\(refused.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for accepted in [
            "jürgen@example.com", "иван@пример.рф", "ivan@пример.рф", "山田たろう@例え.jp", "ομάδα@example.gr", "user+tag@example.com",
            "김철수@example.kr", "1234@example.com",
        ] {
            #expect(EmailAddress.normalize(accepted) != nil, "\(accepted)")
        }
        // Full-width letters are folded to ASCII first (NFKC): one address, not a mixed one.
        #expect(EmailAddress.normalize("ａｌｉｃｅ@example.com") == "alice@example.com")
    }

    @Test func clientAddressesCountIPv6ByTheirSlash64() {
        #expect(ClientAddress.network(of: "192.0.2.7") == "192.0.2.7")
        #expect(ClientAddress.network(of: "::ffff:192.0.2.7") == "192.0.2.7")
        #expect(ClientAddress.network(of: "2001:db8:1:2:3:4:5:6") == "2001:db8:1:2::/64")
        #expect(ClientAddress.network(of: "2001:db8:1:2::9") == "2001:db8:1:2::/64")
        #expect(ClientAddress.network(of: "2001:DB8:1:2:ffff::1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.network(of: "2001:db8:1:3::1") == "2001:db8:1:3::/64")
        #expect(ClientAddress.hash("2001:db8:1:2::1") == ClientAddress.hash("2001:db8:1:2:aaaa::2"))
        #expect(ClientAddress.hash("2001:db8:1:2::1") != ClientAddress.hash("2001:db8:1:3::1"))
        #expect(ClientAddress.network(of: "not an address") == "not an address")
    }
}
