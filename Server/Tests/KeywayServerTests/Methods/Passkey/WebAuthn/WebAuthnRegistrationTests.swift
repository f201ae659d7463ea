import Foundation
import KeywayCBOR
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport
import Testing
import X509

@testable import KeywayServer

/// The relying party and challenge the WebAuthn tests use.
enum WebAuthnFixture {
    /// The challenge every ceremony in the tests answers.
    static let challenge = Data("the challenge".utf8)

    /// A relying party for `example.com` at `https://login.example.com`.
    ///
    /// - Parameters:
    ///   - userVerification: The UV requirement.
    ///   - allowSynced: Whether synced passkeys are accepted.
    ///   - roots: The attestation roots.
    /// - Returns: The verifier.
    static func verifier(
        userVerification: UserVerificationRequirement = .preferred, allowSynced: Bool = true, roots: [Certificate] = []
    ) -> WebAuthnVerifier {
        WebAuthnVerifier(
            relyingParty: WebAuthnRelyingParty(
                id: "example.com", origins: ["https://login.example.com", "ios:bundle-id:com.example.app"],
                userVerification: userVerification, allowSyncedPasskeys: allowSynced, attestation: .direct,
                attestationRoots: roots))
    }

    /// Expects `body` to throw exactly `failure`.
    ///
    /// - Parameters:
    ///   - failure: The failure expected.
    ///   - comment: Names the case in a failure message.
    ///   - body: What should throw it.
    static func expect(
        _ failure: WebAuthnFailure, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("expected \(failure.code), accepted. \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        } catch let error as WebAuthnFailure {
            #expect(error == failure, comment, sourceLocation: sourceLocation)
        } catch {
            Issue.record(error, "not a WebAuthnFailure", sourceLocation: sourceLocation)
        }
    }

    /// Expects `body` to throw a `malformed` failure.
    ///
    /// - Parameters:
    ///   - comment: Names the case in a failure message.
    ///   - body: What should throw it.
    static func expectMalformed(
        _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation,
        _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("expected passkey_malformed, accepted. \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        } catch let error as WebAuthnFailure {
            #expect(error.code == "passkey_malformed", "\(error)", sourceLocation: sourceLocation)
        } catch {
            Issue.record(error, "not a WebAuthnFailure", sourceLocation: sourceLocation)
        }
    }
}

@Suite("WebAuthn registration")
struct WebAuthnRegistrationTests {
    let now = Date()

    @Test("Each algorithm registers with attestation none", arguments: COSEAlgorithm.allCases)
    func noneAttestation(algorithm: COSEAlgorithm) async throws {
        let authenticator = try SoftwareAuthenticator(algorithm)
        var ceremony = SoftwareAuthenticator.Ceremony()
        ceremony.flags = [.userPresent, .userVerified, .backupEligible, .backedUp]
        let verified = try await WebAuthnFixture.verifier().verifyRegistration(
            try authenticator.register(.none, ceremony), challenge: WebAuthnFixture.challenge, now: now)
        #expect(verified.credentialID == authenticator.credentialID)
        #expect(verified.publicKey == authenticator.coseKey)
        #expect(verified.algorithm == algorithm)
        #expect(verified.aaguid == authenticator.aaguid)
        #expect(verified.signCount == 0)
        #expect(verified.userVerified && verified.backupEligible && verified.backedUp)
        #expect(verified.attestationFormat == "none")
        #expect(verified.attestationTrust == AttestationTrust.none)
        #expect(verified.transports == ["internal", "hybrid"])
    }

    @Test("Each algorithm registers with packed self attestation", arguments: COSEAlgorithm.allCases)
    func packedSelf(algorithm: COSEAlgorithm) async throws {
        let authenticator = try SoftwareAuthenticator(algorithm)
        let verified = try await WebAuthnFixture.verifier().verifyRegistration(
            try authenticator.register(.packedSelf), challenge: WebAuthnFixture.challenge, now: now)
        #expect(verified.attestationFormat == "packed")
        #expect(verified.attestationTrust == .selfAttestation)
        #expect(verified.algorithm == algorithm)
    }

    @Test("Packed x5c: certified when a configured root anchors the chain, uncertified otherwise", arguments: COSEAlgorithm.allCases)
    func packedX5C(algorithm: COSEAlgorithm) async throws {
        let ca = try TestAttestationCA(now: now)
        let other = try TestAttestationCA(now: now, name: "Another CA")
        let authenticator = try SoftwareAuthenticator(algorithm)
        let leaf = try ca.issueLeaf(.init(aaguid: authenticator.aaguid))
        let response = try authenticator.register(.packedX5C(leaf))
        let anchored = try await WebAuthnFixture.verifier(roots: [ca.root]).verifyRegistration(
            response, challenge: WebAuthnFixture.challenge, now: now)
        #expect(anchored.attestationTrust == .certified)
        let unconfigured = try await WebAuthnFixture.verifier().verifyRegistration(
            response, challenge: WebAuthnFixture.challenge, now: now)
        #expect(unconfigured.attestationTrust == .uncertified)
        let otherRoot = try await WebAuthnFixture.verifier(roots: [other.root]).verifyRegistration(
            response, challenge: WebAuthnFixture.challenge, now: now)
        #expect(otherRoot.attestationTrust == .uncertified)
        // Expired at the time of the check: the chain no longer anchors.
        let later = try await WebAuthnFixture.verifier(roots: [ca.root]).verifyRegistration(
            response, challenge: WebAuthnFixture.challenge, now: now.addingTimeInterval(2 * 365 * 86_400))
        #expect(later.attestationTrust == .uncertified)
    }

    @Test("A leaf without the AAGUID extension is accepted")
    func leafWithoutAAGUID() async throws {
        let ca = try TestAttestationCA(now: now)
        let authenticator = try SoftwareAuthenticator(.es256)
        let verified = try await WebAuthnFixture.verifier(roots: [ca.root]).verifyRegistration(
            try authenticator.register(.packedX5C(try ca.issueLeaf())), challenge: WebAuthnFixture.challenge, now: now)
        #expect(verified.attestationTrust == .certified)
    }

    @Test("Other formats are accepted as unverified", arguments: ["fido-u2f", "tpm", "android-key", "apple", "future-format"])
    func otherFormats(format: String) async throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        let statement = CBOR.map([(.text("sig"), .bytes(Data([1, 2, 3]))), (.text("x5c"), .array([.bytes(Data([4]))]))])
        let verified = try await WebAuthnFixture.verifier().verifyRegistration(
            try authenticator.register(.other(format: format, statement: statement)), challenge: WebAuthnFixture.challenge,
            now: now)
        #expect(verified.attestationFormat == format)
        #expect(verified.attestationTrust == .unverified)
    }

    @Test("An unverified format still gets every other check")
    func otherFormatStillChecked() async throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        var ceremony = SoftwareAuthenticator.Ceremony()
        ceremony.origin = "https://evil.example"
        let response = try authenticator.register(.other(format: "tpm", statement: .map([])), ceremony)
        await WebAuthnFixture.expect(.originNotAllowed("https://evil.example")) {
            _ = try await WebAuthnFixture.verifier().verifyRegistration(response, challenge: WebAuthnFixture.challenge, now: now)
        }
    }

    /// A registration ceremony that gets one thing wrong, and the refusal it must get.
    struct Refusal: Sendable, CustomTestStringConvertible {
        /// The case's name.
        let name: String
        /// The refusal expected.
        let failure: WebAuthnFailure
        /// The relying party's UV requirement.
        var userVerification: UserVerificationRequirement = .preferred
        /// Whether the relying party accepts synced passkeys.
        var allowSynced = true
        /// What the ceremony gets wrong.
        let change: @Sendable (inout SoftwareAuthenticator.Ceremony) -> Void
        /// The name, as the test's argument.
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "wrong origin", failure: .originNotAllowed("https://login.example.org")) { $0.origin = "https://login.example.org" },
        Refusal(name: "origin differing by port", failure: .originNotAllowed("https://login.example.com:8443")) {
            $0.origin = "https://login.example.com:8443"
        },
        Refusal(name: "cross-origin", failure: .crossOrigin) { $0.crossOrigin = true },
        Refusal(name: "wrong RP ID hash", failure: .rpIDMismatch) { $0.rpID = "example.org" },
        Refusal(name: "wrong challenge", failure: .challengeMismatch) { $0.challenge = Data("another challenge".utf8) },
        Refusal(name: "wrong type", failure: .wrongType) { $0.type = "webauthn.get" },
        Refusal(name: "UP clear", failure: .userNotPresent) { $0.flags = [.userVerified] },
        Refusal(name: "UV clear where required", failure: .userNotVerified, userVerification: .required) { $0.flags = [.userPresent] },
        Refusal(name: "BE where synced passkeys are not allowed", failure: .syncedNotAllowed, allowSynced: false) {
            $0.flags = [.userPresent, .backupEligible]
        },
        Refusal(name: "BS without BE", failure: .backupStateInvalid) { $0.flags = [.userPresent, .backedUp] },
        Refusal(name: "id of another credential", failure: .credentialMismatch) { $0.id = Data("another".utf8) },
    ]

    @Test("Each broken check is refused with its failure", arguments: refusals)
    func refused(_ refusal: Refusal) async throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        var ceremony = SoftwareAuthenticator.Ceremony()
        refusal.change(&ceremony)
        let response = try authenticator.register(.packedSelf, ceremony)
        let verifier = WebAuthnFixture.verifier(userVerification: refusal.userVerification, allowSynced: refusal.allowSynced)
        await WebAuthnFixture.expect(refusal.failure, "\(refusal.name)") {
            _ = try await verifier.verifyRegistration(response, challenge: WebAuthnFixture.challenge, now: now)
        }
    }

    @Test("UV clear is accepted where it is preferred or discouraged; BE where synced passkeys are allowed")
    func acceptedFlags() async throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        var ceremony = SoftwareAuthenticator.Ceremony()
        ceremony.flags = [.userPresent, .backupEligible]
        for requirement in [UserVerificationRequirement.preferred, .discouraged] {
            let verified = try await WebAuthnFixture.verifier(userVerification: requirement).verifyRegistration(
                try authenticator.register(.none, ceremony), challenge: WebAuthnFixture.challenge, now: now)
            #expect(!verified.userVerified && verified.backupEligible && !verified.backedUp)
        }
        ceremony.flags = [.userPresent]
        let deviceBound = try await WebAuthnFixture.verifier(allowSynced: false).verifyRegistration(
            try authenticator.register(.none, ceremony), challenge: WebAuthnFixture.challenge, now: now)
        #expect(!deviceBound.backupEligible)
    }

    @Test("A platform origin on the allow-list is accepted")
    func platformOrigin() async throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        var ceremony = SoftwareAuthenticator.Ceremony()
        ceremony.origin = "ios:bundle-id:com.example.app"
        ceremony.crossOrigin = nil
        _ = try await WebAuthnFixture.verifier().verifyRegistration(
            try authenticator.register(.none, ceremony), challenge: WebAuthnFixture.challenge, now: now)
    }

    @Test("Attestation statements that do not verify are refused")
    func badAttestations() async throws {
        let ca = try TestAttestationCA(now: now)
        let authenticator = try SoftwareAuthenticator(.es256)
        let verifier = WebAuthnFixture.verifier(roots: [ca.root])
        /// Expects `response` to be refused for its attestation.
        func refuse(_ response: PasskeyRegistrationResponse, _ name: String) async {
            do {
                _ = try await verifier.verifyRegistration(response, challenge: WebAuthnFixture.challenge, now: now)
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.code == "passkey_attestation_invalid", "\(name): \(error)")
            }
        }
        var corrupt = SoftwareAuthenticator.Ceremony()
        corrupt.corruptSignature = true
        await refuse(try authenticator.register(.packedSelf, corrupt), "self, bad signature")
        await refuse(try authenticator.register(.packedX5C(try ca.issueLeaf(.init(aaguid: authenticator.aaguid))), corrupt), "x5c, bad signature")
        var otherKey = SoftwareAuthenticator.Ceremony()
        otherKey.signer = try SoftwareAuthenticator(.es256).key
        await refuse(try authenticator.register(.packedSelf, otherKey), "self, signed by another key")
        var wrongAlgorithm = SoftwareAuthenticator.Ceremony()
        wrongAlgorithm.statementAlgorithm = -257
        await refuse(try authenticator.register(.packedSelf, wrongAlgorithm), "self, alg not the credential's")
        await refuse(try authenticator.register(.packedX5C(try ca.issueLeaf(.init(organizationalUnit: nil)))), "leaf without OU")
        await refuse(try authenticator.register(.packedX5C(try ca.issueLeaf(.init(organizationalUnit: "Attestation")))), "leaf with another OU")
        await refuse(try authenticator.register(.packedX5C(try ca.issueLeaf(.init(aaguid: Data(repeating: 7, count: 16))))), "leaf of another AAGUID")
        await refuse(try authenticator.register(.packedX5C(try ca.issueLeaf(.init(isCertificateAuthority: true)))), "leaf that is a CA")
        await refuse(
            try authenticator.register(.other(format: "none", statement: .map([(.text("sig"), .bytes(Data([1])))]))),
            "none with a statement")
        await refuse(
            try authenticator.register(.other(format: "packed", statement: .map([(.text("alg"), .int(-7))]))),
            "packed without sig")
        await refuse(
            try authenticator.register(
                .other(format: "packed", statement: .map([(.text("alg"), .int(-7)), (.text("sig"), .bytes(Data([1]))), (.text("x5c"), .array([]))]))),
            "packed with an empty x5c")
        await refuse(
            try authenticator.register(
                .other(format: "packed", statement: .map([(.text("alg"), .int(-7)), (.text("sig"), .bytes(Data([1]))), (.text("x5c"), .array([.bytes(Data([0x30, 0x00]))]))]))),
            "packed with an x5c that does not parse")
    }

    @Test("Keys Keyway does not verify are refused")
    func unsupportedKeys() async throws {
        let authenticator = try SoftwareAuthenticator(.es256)
        let raw = Data(repeating: 1, count: 32)
        let cases: [(String, CBOR, WebAuthnFailure?)] = [
            ("ES384", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .int(-35)), (.int(-1), .unsigned(2)), (.int(-2), .bytes(raw)), (.int(-3), .bytes(raw))]), .unsupportedAlgorithm(-35)),
            ("no alg", .map([(.unsigned(1), .unsigned(2)), (.int(-1), .unsigned(1)), (.int(-2), .bytes(raw)), (.int(-3), .bytes(raw))]), nil),
            ("EC2 with EdDSA alg", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .int(-8)), (.int(-1), .unsigned(1)), (.int(-2), .bytes(raw)), (.int(-3), .bytes(raw))]), nil),
            ("P-384 curve", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .int(-7)), (.int(-1), .unsigned(2)), (.int(-2), .bytes(raw)), (.int(-3), .bytes(raw))]), nil),
            ("point off the curve", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .int(-7)), (.int(-1), .unsigned(1)), (.int(-2), .bytes(raw)), (.int(-3), .bytes(raw))]), nil),
            ("short x", .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .int(-7)), (.int(-1), .unsigned(1)), (.int(-2), .bytes(raw.prefix(31))), (.int(-3), .bytes(raw))]), nil),
            ("X25519 curve", .map([(.unsigned(1), .unsigned(1)), (.unsigned(3), .int(-8)), (.int(-1), .unsigned(4)), (.int(-2), .bytes(raw))]), nil),
            ("RSA of 1024 bits", .map([(.unsigned(1), .unsigned(3)), (.unsigned(3), .int(-257)), (.int(-1), .bytes(Data([0xC1]) + Data(repeating: 0x55, count: 127))), (.int(-2), .bytes(Data([1, 0, 1])))]), nil),
            ("not a map", .array([.unsigned(1)]), nil),
        ]
        for (name, key, failure) in cases {
            var ceremony = SoftwareAuthenticator.Ceremony()
            ceremony.credentialKeyItem = key
            let response = try authenticator.register(.none, ceremony)
            do {
                _ = try await WebAuthnFixture.verifier().verifyRegistration(response, challenge: WebAuthnFixture.challenge, now: now)
                Issue.record("\(name): accepted")
            } catch {
                if let failure { #expect(error == failure, "\(name)") } else { #expect(error.code == "passkey_malformed", "\(name): \(error)") }
            }
        }
    }
}
