import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing
import X509

@testable import KeywayServer

/// Keyway's WebAuthn verifier against an independent peer, `Tests/Interop/webauthn_peer.py`:
/// cases crafted with fido2 and `cryptography` whose verdicts by the duo-labs `webauthn` library
/// (py_webauthn) Keyway must reproduce, and responses Keyway accepted that py_webauthn must
/// accept too. Needs python3 with `Tests/Interop/requirements.txt` installed.
@Suite("WebAuthn interop with py_webauthn and fido2")
struct WebAuthnInteropTests {
    /// The cases where Keyway's verdict differs from py_webauthn's on purpose: Keyway's verdict
    /// and why. Every other case must get the library's verdict.
    static let deliberateDifferences: [String: (keyway: Verdict, why: String)] = [
        "registration packed x5c chain to another root": (
            .accept,
            "Keyway records a chain no configured root anchors as `uncertified` and leaves the decision to the policy; py_webauthn refuses it"
        ),
        "registration packed x5c leaf without OU": (
            .refuse, "Keyway checks the attestation certificate requirements of §8.2.1 (OU \"Authenticator Attestation\"); py_webauthn does not"
        ),
        "registration cross-origin": (.refuse, "Keyway refuses crossOrigin true (§7.1 step 9 leaves it to the RP); py_webauthn ignores it"),
        "assertion cross-origin": (.refuse, "Keyway refuses crossOrigin true (§7.2); py_webauthn ignores it"),
        "registration fido-u2f statement": (
            .accept, "Keyway accepts formats other than none and packed unverified and records them so; py_webauthn verifies fido-u2f and refuses this one"
        ),
        "registration id not the authenticator data's": (
            .refuse, "Keyway requires id and rawId to be the authenticator data's credential ID; py_webauthn compares id with rawId only"
        ),
        "assertion user handle of another user": (
            .refuse, "Keyway compares the user handle with the stored credential's (§7.2 step 6); py_webauthn is not given one"
        ),
        "assertion BE set, registered without": (
            .refuse, "Keyway refuses a BE flag that differs from the one registered (§7.2 step 18); py_webauthn keeps no BE"
        ),
    ]

    /// Accepted or refused.
    enum Verdict: String, Decodable, Sendable {
        case accept
        case refuse
    }

    /// The relying party of a case.
    struct PeerRelyingParty: Codable {
        var id: String
        var origins: [String]
        var userVerification: String
        var challenge: String
        var roots: [String]
    }

    /// The stored credential of an assertion case.
    struct PeerCredential: Codable {
        var id: String
        var publicKey: String
        var signCount: UInt32
        var backupEligible: Bool
        var userHandle: String
    }

    /// py_webauthn's verdict.
    struct LibraryVerdict: Decodable {
        var verdict: Verdict
        var detail: String
    }

    /// One crafted case.
    struct PeerCase: Decodable {
        var name: String
        var ceremony: String
        var rp: PeerRelyingParty
        var registration: PasskeyRegistrationResponse?
        var assertion: PasskeyAssertionResponse?
        var credential: PeerCredential?
        var keywayCode: String?
        var keywayTrust: String?
        var library: LibraryVerdict

        enum CodingKeys: String, CodingKey {
            case name, ceremony, rp, response, credential, keywayCode, keywayTrust, library
        }

        /// Decodes the response as the ceremony's type.
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            ceremony = try container.decode(String.self, forKey: .ceremony)
            rp = try container.decode(PeerRelyingParty.self, forKey: .rp)
            if ceremony == "registration" {
                registration = try container.decode(PasskeyRegistrationResponse.self, forKey: .response)
            } else {
                assertion = try container.decode(PasskeyAssertionResponse.self, forKey: .response)
            }
            credential = try container.decodeIfPresent(PeerCredential.self, forKey: .credential)
            keywayCode = try container.decodeIfPresent(String.self, forKey: .keywayCode)
            keywayTrust = try container.decodeIfPresent(String.self, forKey: .keywayTrust)
            library = try container.decode(LibraryVerdict.self, forKey: .library)
        }
    }

    /// Runs the peer in `mode` with `input` and decodes its output.
    static func peer<Output: Decodable>(_ mode: String, input: Data? = nil, as type: Output.Type) async throws -> Output {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Interop/webauthn_peer.py")
        let result = try await ChildProcess.run("python3", [script.path, mode], input: input, timeout: .seconds(120))
        let errors = String(decoding: result.errors, as: UTF8.self)
        try #require(result.status == 0, "webauthn_peer.py \(mode) failed (install Tests/Interop/requirements.txt): \(errors)")
        return try JSONDecoder().decode(Output.self, from: result.output)
    }

    /// The verifier for a case's relying party (synced passkeys allowed, as py_webauthn has no such setting).
    static func verifier(_ rp: PeerRelyingParty) throws -> WebAuthnVerifier {
        WebAuthnVerifier(
            relyingParty: WebAuthnRelyingParty(
                id: rp.id, origins: rp.origins, userVerification: try #require(UserVerificationRequirement(rawValue: rp.userVerification)),
                allowSyncedPasskeys: true, attestation: .direct,
                attestationRoots: try rp.roots.map { try Certificate(pemEncoded: $0) }))
    }

    @Test("Keyway's verdict on every case crafted with fido2 is py_webauthn's, but for the documented differences")
    func craftedCases() async throws {
        struct Output: Decodable { var cases: [PeerCase] }
        let cases = try await Self.peer("craft", as: Output.self).cases
        #expect(cases.count >= 50)
        let names = Set(cases.map(\.name))
        #expect(names.count == cases.count, "case names are unique")
        for name in Self.deliberateDifferences.keys {
            #expect(names.contains(name), "the documented difference \"\(name)\" has a case")
        }
        for peerCase in cases {
            let verifier = try Self.verifier(peerCase.rp)
            let challenge = try #require(Base64URL.decode(peerCase.rp.challenge))
            var trust: AttestationTrust?
            let keyway: Result<Void, WebAuthnFailure>
            do {
                if let registration = peerCase.registration {
                    trust = try await verifier.verifyRegistration(registration, challenge: challenge, now: Date()).attestationTrust
                } else {
                    let stored = try #require(peerCase.credential)
                    let credential = StoredPasskeyCredential(
                        credentialID: try #require(Base64URL.decode(stored.id)), publicKey: try #require(Base64URL.decode(stored.publicKey)),
                        signCount: stored.signCount, backupEligible: stored.backupEligible,
                        userHandle: try #require(Base64URL.decode(stored.userHandle)))
                    _ = try verifier.verifyAssertion(try #require(peerCase.assertion), challenge: challenge, credential: credential)
                }
                keyway = .success(())
            } catch let failure as WebAuthnFailure {
                keyway = .failure(failure)
            }
            let verdict: Verdict
            switch keyway {
            case .success: verdict = .accept
            case .failure(let failure):
                verdict = .refuse
                #expect(failure.code == peerCase.keywayCode, "\(peerCase.name): refused with \(failure)")
            }
            if verdict == .accept {
                #expect(peerCase.keywayCode == nil, "\(peerCase.name): accepted, \(peerCase.keywayCode ?? "") expected")
                if peerCase.registration != nil {
                    #expect(trust?.rawValue == peerCase.keywayTrust, "\(peerCase.name): trust \(String(describing: trust))")
                }
            }
            if let difference = Self.deliberateDifferences[peerCase.name] {
                #expect(verdict == difference.keyway, "\(peerCase.name): Keyway's verdict")
                #expect(peerCase.library.verdict != difference.keyway, "\(peerCase.name): py_webauthn now agrees: \(peerCase.library.detail)")
            } else {
                #expect(verdict == peerCase.library.verdict, "\(peerCase.name): py_webauthn says \(peerCase.library.verdict) \(peerCase.library.detail)")
            }
        }
    }

    /// A case the verify mode checks.
    struct VerifyCase: Encodable {
        var name: String
        var ceremony: String
        var rp: PeerRelyingParty
        var response: Response
        var credential: PeerCredential?

        /// Either response, encoded as itself.
        enum Response: Encodable {
            case registration(PasskeyRegistrationResponse)
            case assertion(PasskeyAssertionResponse)

            /// Encodes the response alone.
            func encode(to encoder: any Encoder) throws {
                switch self {
                case .registration(let response): try response.encode(to: encoder)
                case .assertion(let response): try response.encode(to: encoder)
                }
            }
        }
    }

    @Test("py_webauthn accepts what Keyway accepted from the Swift software authenticator")
    func acceptancesConfirmed() async throws {
        let now = Date()
        let ca = try TestAttestationCA(now: now)
        let rp = PeerRelyingParty(
            id: "example.com", origins: ["https://login.example.com", "ios:bundle-id:com.example.app"], userVerification: "required",
            challenge: Base64URL.encode(WebAuthnFixture.challenge), roots: [])
        let anchoredRP = PeerRelyingParty(
            id: rp.id, origins: rp.origins, userVerification: rp.userVerification, challenge: rp.challenge,
            roots: [try ca.root.serializeAsPEM().pemString])
        var cases: [VerifyCase] = []
        for algorithm in COSEAlgorithm.allCases {
            let authenticator = try SoftwareAuthenticator(algorithm)
            let leaf = try ca.issueLeaf(.init(aaguid: authenticator.aaguid))
            let attestations: [(String, SoftwareAuthenticator.Attestation, PeerRelyingParty, AttestationTrust)] = [
                ("none", .none, rp, .none), ("packed self", .packedSelf, rp, .selfAttestation),
                ("packed x5c", .packedX5C(leaf), anchoredRP, .certified),
            ]
            for (label, attestation, relyingParty, trust) in attestations {
                var ceremony = SoftwareAuthenticator.Ceremony()
                ceremony.flags = [.userPresent, .userVerified, .backupEligible]
                let response = try authenticator.register(attestation, ceremony)
                let verified = try await Self.verifier(relyingParty).verifyRegistration(
                    response, challenge: WebAuthnFixture.challenge, now: now)
                #expect(verified.attestationTrust == trust)
                cases.append(VerifyCase(name: "registration \(algorithm) \(label)", ceremony: "registration", rp: relyingParty, response: .registration(response)))
            }
            for (stored, received) in [(UInt32(0), UInt32(0)), (41, 42)] {
                var ceremony = SoftwareAuthenticator.Ceremony()
                ceremony.signCount = received
                ceremony.flags = [.userPresent, .userVerified, .backupEligible, .backedUp]
                let response = try authenticator.assert(ceremony)
                let credential = authenticator.stored(signCount: stored, backupEligible: true)
                _ = try Self.verifier(rp).verifyAssertion(response, challenge: WebAuthnFixture.challenge, credential: credential)
                cases.append(VerifyCase(
                    name: "assertion \(algorithm) counter \(stored) to \(received)", ceremony: "assertion", rp: rp, response: .assertion(response),
                    credential: PeerCredential(
                        id: Base64URL.encode(credential.credentialID), publicKey: Base64URL.encode(credential.publicKey),
                        signCount: stored, backupEligible: true, userHandle: Base64URL.encode(credential.userHandle))))
            }
        }
        struct Input: Encodable { var cases: [VerifyCase] }
        struct Result: Decodable { var name: String; var verdict: Verdict; var detail: String }
        struct Output: Decodable { var results: [Result] }
        let results = try await Self.peer("verify", input: try JSONEncoder().encode(Input(cases: cases)), as: Output.self).results
        #expect(results.map(\.name) == cases.map(\.name))
        for result in results {
            #expect(result.verdict == .accept, "\(result.name): py_webauthn refuses: \(result.detail)")
        }
    }
}
