import Foundation
import KeywayPowerAuth
import Testing

/// The signed body of a request without one, against answers worked out by the rules of the Java
/// reference (`PowerAuthRequestCanonizationUtils.canonizeGetParameters`: `URLDecoder`, sorting
/// by `String.compareTo`, `URLEncoder`), which the mobile SDKs follow too.
@Suite("PowerAuth canonical query: the Java reference's form")
struct CanonicalQueryTests {
    static func canonical(_ raw: String?) -> String? {
        PowerAuthSignature.canonicalQuery(rawQuery: raw).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func decodesSortsAndEncodesAgainAsJavaDoes() {
        // A space, `:`, `@`, `/`, non-ASCII, `~`, `*`, a `+` meaning a space and an encoded `+`;
        // an empty value kept, a pair without `=` skipped.
        let raw =
            "to=Bob%20Smith&note=a%3Ab%40c%2Fd&amount=100.00&empty=&flag&name=J%C3%BCrgen&tilde=~x*y&plus=a+b&z=%2B1"
        #expect(
            Self.canonical(raw)
                == "amount=100.00&empty=&name=J%C3%BCrgen&note=a%3Ab%40c%2Fd&plus=a+b&tilde=%7Ex*y&to=Bob+Smith&z=%2B1")
        // The same parameters decoded, as an SDK holds them, give the same bytes.
        let decoded = PowerAuthSignature.canonicalQuery([
            ("to", "Bob Smith"), ("note", "a:b@c/d"), ("amount", "100.00"), ("empty", ""), ("name", "Jürgen"),
            ("tilde", "~x*y"), ("plus", "a b"), ("z", "+1"),
        ])
        #expect(String(decoding: decoded, as: UTF8.self) == Self.canonical(raw))
    }

    @Test func sortsByUTF16CodeUnitsThenByValue() {
        // UTF-16 puts U+00E9 < U+1F600 (a surrogate pair, D83D) < U+FF5A; UTF-8 would put U+FF5A
        // (EF…) before U+1F600 (F0…).
        #expect(Self.canonical("%EF%BD%9A=1&%F0%9F%98%80=1&%C3%A9=1") == "%C3%A9=1&%F0%9F%98%80=1&%EF%BD%9A=1")
        // Equal keys: by value, as strings ("10" before "2").
        #expect(Self.canonical("a=2&b=1&a=10") == "a=10&a=2&b=1")
        #expect(Self.canonical("b=2&a=z&a=y") == "a=y&a=z&b=2")
    }

    @Test func emptyAndMalformedQueries() {
        #expect(Self.canonical(nil) == "")
        #expect(Self.canonical("") == "")
        #expect(Self.canonical("flag&&other") == "")
        #expect(Self.canonical("=v&k=") == "=v&k=")
        #expect(Self.canonical("a=b=c") == "a=b%3Dc")
        #expect(Self.canonical("a=%zz") == nil)
        #expect(Self.canonical("a=%4") == nil)
        #expect(Self.canonical("%G1=x") == nil)
    }
}
