import KeywayPowerAuth
import Testing

@Suite("Base32 (RFC 4648 §6): activation codes and authenticator secrets")
struct Base32Tests {
    @Test func matchesTheRFCsVectors() {
        let vectors = [
            ("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="), ("foob", "MZXW6YQ="),
            ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.encode(Array(plain.utf8), padding: false) == encoded.replacingOccurrences(of: "=", with: ""))
            #expect(Base32.decode(encoded) == Array(plain.utf8))
            #expect(Base32.decode(encoded.lowercased().replacingOccurrences(of: "=", with: "")) == Array(plain.utf8))
        }
    }

    @Test func refusesCharactersOutsideTheAlphabetAndTextAfterPadding() {
        #expect(Base32.decode("MZ1W") == nil)
        #expect(Base32.decode("MY==MY==") == nil)
        #expect(Base32.decode("MZXW6 ") == nil)
    }
}
