import Crypto
import Foundation
import Keyway
import KeywayProtocol
import KeywayJOSE
import Testing

@Suite("Profile field encryption")
struct ProfileCipherTests {
    @Test func sealsAsCompactJWEAndOpens() throws {
        let cipher = try ProfileCipher(key: SymmetricKey(size: .bits256))
        let sealed = try cipher.seal("secret ✓")
        let parts = sealed.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 5)
        #expect(parts[1].isEmpty)
        #expect(Base64URL.decode(parts[0]) == Data(#"{"alg":"dir","enc":"A256GCM"}"#.utf8))
        #expect(Base64URL.decode(parts[2])?.count == 12)
        #expect(try cipher.open(sealed) == "secret ✓")
        #expect(try cipher.seal("secret ✓") != sealed)
    }

    @Test func wrongKeysAndTamperingFail() throws {
        let cipher = try ProfileCipher(key: SymmetricKey(size: .bits256))
        let sealed = try cipher.seal("value")
        #expect(throws: KeywayError.self) { try ProfileCipher(key: SymmetricKey(size: .bits256)).open(sealed) }
        var parts = sealed.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        parts[3] = Base64URL.encode(Array("other".utf8))
        #expect(throws: KeywayError.self) { try cipher.open(parts.joined(separator: ".")) }
        #expect(throws: KeywayError.self) { try cipher.open("not.a.jwe") }
        #expect(throws: KeywayError.self) { try ProfileCipher(key: SymmetricKey(size: .bits128)) }
    }
}
