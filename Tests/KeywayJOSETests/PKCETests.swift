import Foundation
import KeywayJOSE
import Testing

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    // RFC 7636 Appendix B.
    let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test func appendixBVerifierFromOctets() {
        let octets: [UInt8] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214,
            191, 240, 91, 88, 5, 88, 83, 132, 141, 121,
        ]
        #expect(Base64URL.encode(octets) == verifier)
    }

    @Test func appendixBChallenge() {
        #expect(PKCE.challenge(for: verifier) == challenge)
        #expect(PKCE.verify(verifier: verifier, challenge: challenge))
    }

    @Test func wrongVerifierFails() {
        #expect(!PKCE.verify(verifier: verifier.replacingOccurrences(of: "d", with: "e"), challenge: challenge))
    }

    @Test(arguments: [
        ("short", false),
        (String(repeating: "a", count: 42), false),
        (String(repeating: "a", count: 43), true),
        (String(repeating: "a", count: 128), true),
        (String(repeating: "a", count: 129), false),
        (String(repeating: "a", count: 42) + "!", false),
        (String(repeating: "-._~", count: 11), true),
    ])
    func verifierSyntax(verifier: String, valid: Bool) {
        #expect(PKCE.isValidVerifier(verifier) == valid)
    }

    @Test func challengeShape() {
        #expect(PKCE.isValidS256Challenge(challenge))
        #expect(!PKCE.isValidS256Challenge("plain-challenge"))
        #expect(!PKCE.isValidS256Challenge(challenge + "A"))
    }

    @Test func generatedVerifiersAreValidAndDistinct() {
        var generator = SystemRandomNumberGenerator()
        let first = PKCE.makeVerifier(using: &generator)
        let second = PKCE.makeVerifier(using: &generator)
        #expect(first.count == 43)
        #expect(PKCE.isValidVerifier(first))
        #expect(first != second)
    }
}
