import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("WebAuthn assertion")
struct WebAuthnAssertionTests {
    @Test("Each algorithm's assertion verifies and gives the new counter", arguments: COSEAlgorithm.allCases)
    func verifies(algorithm: COSEAlgorithm) throws {
        let authenticator = try SoftwareAuthenticator(algorithm)
        var ceremony = SoftwareAuthenticator.Ceremony()
        ceremony.signCount = 8
        ceremony.flags = [.userPresent, .userVerified, .backupEligible, .backedUp]
        let verified = try WebAuthnFixture.verifier(userVerification: .required).verifyAssertion(
            try authenticator.assert(ceremony), challenge: WebAuthnFixture.challenge,
            credential: authenticator.stored(signCount: 7, backupEligible: true))
        #expect(verified == VerifiedAssertion(signCount: 8, userVerified: true, backedUp: true))
    }

    @Test("A counter of 0 after 0 is accepted (no counter, synced passkeys)")
    func zeroCounter() throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        let verified = try WebAuthnFixture.verifier().verifyAssertion(
            try authenticator.assert(), challenge: WebAuthnFixture.challenge, credential: authenticator.stored(signCount: 0))
        #expect(verified.signCount == 0 && verified.userVerified && !verified.backedUp)
    }

    @Test("An assertion without a user handle, or with an empty one, is checked by its credential ID")
    func noUserHandle() throws {
        let authenticator = try SoftwareAuthenticator(.edDSA)
        var response = try authenticator.assert()
        response.response.userHandle = nil
        _ = try WebAuthnFixture.verifier().verifyAssertion(
            response, challenge: WebAuthnFixture.challenge, credential: authenticator.stored())
        response.response.userHandle = ""
        _ = try WebAuthnFixture.verifier().verifyAssertion(
            response, challenge: WebAuthnFixture.challenge, credential: authenticator.stored())
    }

    /// An assertion that gets one thing wrong, and the refusal it must get.
    struct Refusal: Sendable, CustomTestStringConvertible {
        /// The case's name.
        let name: String
        /// The refusal expected.
        let failure: WebAuthnFailure
        /// The stored counter.
        var storedCount: UInt32 = 0
        /// The stored BE flag.
        var storedBackupEligible = false
        /// The relying party's UV requirement.
        var userVerification: UserVerificationRequirement = .preferred
        /// What the ceremony gets wrong.
        let change: @Sendable (inout SoftwareAuthenticator.Ceremony) throws -> Void
        /// The name, as the test's argument.
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "counter regressed", failure: .counterRegressed(stored: 10, received: 9), storedCount: 10) { $0.signCount = 9 },
        Refusal(name: "counter unchanged", failure: .counterRegressed(stored: 10, received: 10), storedCount: 10) { $0.signCount = 10 },
        Refusal(name: "counter 0 after a counter", failure: .counterRegressed(stored: 3, received: 0), storedCount: 3) { $0.signCount = 0 },
        Refusal(name: "credential ID of another credential", failure: .credentialMismatch) { $0.id = Data("another".utf8) },
        Refusal(name: "user handle of another user", failure: .credentialMismatch) { $0.userHandle = Data("someone else".utf8) },
        Refusal(name: "signature by another key", failure: .signatureInvalid) { $0.signer = try SoftwareAuthenticator(.es256).key },
        Refusal(name: "signature corrupted", failure: .signatureInvalid) { $0.corruptSignature = true },
        Refusal(name: "UP clear", failure: .userNotPresent) { $0.flags = [.userVerified] },
        Refusal(name: "UV clear where required", failure: .userNotVerified, userVerification: .required) { $0.flags = [.userPresent] },
        Refusal(name: "BE set, registered without", failure: .backupStateInvalid) { $0.flags = [.userPresent, .backupEligible] },
        Refusal(name: "BE clear, registered with", failure: .backupStateInvalid, storedBackupEligible: true) { $0.flags = [.userPresent] },
        Refusal(name: "BS without BE", failure: .backupStateInvalid) { $0.flags = [.userPresent, .backedUp] },
        Refusal(name: "wrong type", failure: .wrongType) { $0.type = "webauthn.create" },
        Refusal(name: "wrong challenge", failure: .challengeMismatch) { $0.challenge = Data("the challengf".utf8) },
        Refusal(name: "wrong origin", failure: .originNotAllowed("http://login.example.com")) { $0.origin = "http://login.example.com" },
        Refusal(name: "cross-origin", failure: .crossOrigin) { $0.crossOrigin = true },
        Refusal(name: "wrong RP ID hash", failure: .rpIDMismatch) { $0.rpID = "login.example.com" },
    ]

    @Test("Each broken check is refused with its failure", arguments: refusals)
    func refused(_ refusal: Refusal) throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        var ceremony = SoftwareAuthenticator.Ceremony()
        try refusal.change(&ceremony)
        let response = try authenticator.assert(ceremony)
        let credential = authenticator.stored(signCount: refusal.storedCount, backupEligible: refusal.storedBackupEligible)
        #expect(throws: refusal.failure, "\(refusal.name)") {
            _ = try WebAuthnFixture.verifier(userVerification: refusal.userVerification).verifyAssertion(
                response, challenge: WebAuthnFixture.challenge, credential: credential)
        }
    }

    @Test("The response's id and rawId must agree")
    func rawIDDiffers() throws {
        let authenticator = try SoftwareAuthenticator(.rs256)
        var response = try authenticator.assert()
        response.rawID = Base64URL.encode(Data("another".utf8))
        #expect(throws: WebAuthnFailure.credentialMismatch) {
            _ = try WebAuthnFixture.verifier().verifyAssertion(
                response, challenge: WebAuthnFixture.challenge, credential: authenticator.stored())
        }
    }

    @Test("A signature by a key of another algorithm is refused, not trapped on")
    func crossAlgorithmSignature() throws {
        let authenticator = try SoftwareAuthenticator(.rs256)
        var ceremony = SoftwareAuthenticator.Ceremony()
        ceremony.signer = try SoftwareAuthenticator(.edDSA).key
        let response = try authenticator.assert(ceremony)
        #expect(throws: WebAuthnFailure.signatureInvalid) {
            _ = try WebAuthnFixture.verifier().verifyAssertion(
                response, challenge: WebAuthnFixture.challenge, credential: authenticator.stored())
        }
    }

    @Test("Every failure has a stable snake_case code and a sentence")
    func codes() {
        let failures: [WebAuthnFailure] = [
            .malformed("x"), .unsupportedAlgorithm(-35), .wrongType, .challengeMismatch, .originNotAllowed("o"), .crossOrigin,
            .rpIDMismatch, .userNotPresent, .userNotVerified, .syncedNotAllowed, .backupStateInvalid, .attestationInvalid("x"),
            .credentialMismatch, .signatureInvalid, .counterRegressed(stored: 2, received: 1),
        ]
        #expect(Set(failures.map(\.code)).count == failures.count)
        for failure in failures {
            #expect(failure.code.hasPrefix("passkey_") && failure.code.allSatisfy { $0.isLowercase || $0 == "_" })
            #expect(failure.sentence.hasSuffix("."))
        }
    }
}
