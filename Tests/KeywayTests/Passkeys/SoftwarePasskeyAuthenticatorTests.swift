import Crypto
import Foundation
import KeywayCBOR
import KeywayJOSE
import Testing

@testable import Keyway
@testable import KeywaySoftwarePasskeys
import KeywayProtocol

@Suite("The software passkey authenticator")
struct SoftwarePasskeyAuthenticatorTests {
    private let rpIdHash = Array(SHA256.hash(data: Data(PasskeyOptions.rpId.utf8)))

    @Test func aRegistrationIsAnAttestationObjectThatReadsBack() async throws {
        let authenticator = SoftwarePasskeyAuthenticator()
        let options = PasskeyOptions.creation()
        let response = try await authenticator.makeCredential(options)
        #expect(response.type == "public-key")
        #expect(response.id == response.rawID)
        #expect(response.clientExtensionResults?.credProps?.rk == true)

        let read = try ReadRegistration(response)
        // The client data, byte for byte, in the order the limited verification algorithm reads.
        #expect(
            String(decoding: read.clientDataJSON, as: UTF8.self)
                == #"{"type":"webauthn.create","challenge":"\#(options.challenge)","origin":"https://example.com","crossOrigin":false}"#)
        #expect(read.clientData["crossOrigin"] as? Bool == false)

        // The attestation object: its keys in CTAP2's canonical order, `none` with an empty statement.
        let raw = Array(try #require(Base64URL.decode(response.response.attestationObject)))
        #expect(Array(raw.prefix(5)) == [0xA3, 0x63] + Array("fmt".utf8))
        #expect(read.attestation.keys == [.text("fmt"), .text("attStmt"), .text("authData")])
        #expect(read.attestation[.text("fmt")] == .text("none"))
        #expect(read.attestation[.text("attStmt")] == .map([]))

        // The authenticator data.
        let data = read.parsed
        #expect(data.rpIdHash == rpIdHash)
        #expect(data.userPresent && data.userVerified && data.hasAttestedCredential)
        #expect(!data.backupEligible && !data.backedUp)
        #expect(data.flags == 0x45)
        #expect(data.counter == 0)
        #expect(data.aaguid == [UInt8](repeating: 0, count: 16))
        #expect(data.credentialID?.count == 32)
        #expect(data.credentialID.map { Base64URL.encode($0) } == response.id)

        // The COSE key: EC2 on P-256 for ES256, keys 1, 3, -1, -2, -3 in that order.
        let key = try #require(data.publicKey)
        #expect(key.keys == [.int(1), .int(3), .int(-1), .int(-2), .int(-3)])
        #expect(key[.int(1)] == .int(2))
        #expect(key[.int(3)] == .int(-7))
        #expect(key[.int(-1)] == .int(1))
        #expect(key[.int(-2)]?.bytesValue?.count == 32)
        #expect(key[.int(-3)]?.bytesValue?.count == 32)
        _ = try COSEPublicKey(key)
    }

    @Test(arguments: [SoftwarePasskeyAuthenticator.Algorithm.es256, .eddsa])
    func packedSelfAttestationIsSignedByTheNewKey(algorithm: SoftwarePasskeyAuthenticator.Algorithm) async throws {
        let authenticator = SoftwarePasskeyAuthenticator(
            configuration: .init(attestation: .packed, algorithm: algorithm))
        let read = try ReadRegistration(try await authenticator.makeCredential(PasskeyOptions.creation()))
        #expect(read.attestation[.text("fmt")] == .text("packed"))
        let statement = try #require(read.attestation[.text("attStmt")])
        #expect(statement.keys == [.text("alg"), .text("sig")])
        #expect(statement[.text("alg")] == .int(algorithm.rawValue))
        let signature = Array(try #require(statement[.text("sig")]?.bytesValue))
        let key = try COSEPublicKey(try #require(read.parsed.publicKey))
        #expect(key.verifies(signature, authenticatorData: read.authenticatorData, clientDataJSON: read.clientDataJSON))
        #expect(!key.verifies(signature, authenticatorData: read.authenticatorData, clientDataJSON: Array("{}".utf8)))
        if algorithm == .eddsa {
            #expect(read.parsed.publicKey?.keys == [.int(1), .int(3), .int(-1), .int(-2)])
            #expect(read.parsed.publicKey?[.int(-1)] == .int(6))
        }
    }

    @Test(arguments: [SoftwarePasskeyAuthenticator.Algorithm.es256, .eddsa])
    func signaturesVerifyAndTheCounterGoesUpByOne(algorithm: SoftwarePasskeyAuthenticator.Algorithm) async throws {
        let authenticator = SoftwarePasskeyAuthenticator(configuration: .init(algorithm: algorithm))
        let registration = try ReadRegistration(try await authenticator.makeCredential(PasskeyOptions.creation()))
        let key = try COSEPublicKey(try #require(registration.parsed.publicKey))
        let credentialID = Base64URL.encode(try #require(registration.parsed.credentialID))

        for expected in UInt32(1)...2 {
            let options = PasskeyOptions.request(challenge: Base64URL.encode(Array(repeating: UInt8(expected), count: 32)))
            let assertion = try await authenticator.getAssertion(options)
            #expect(assertion.id == credentialID)
            #expect(assertion.response.userHandle == PasskeyOptions.userHandle)
            let clientDataJSON = Array(try #require(Base64URL.decode(assertion.response.clientDataJSON)))
            #expect(
                String(decoding: clientDataJSON, as: UTF8.self)
                    == #"{"type":"webauthn.get","challenge":"\#(options.challenge)","origin":"https://example.com","crossOrigin":false}"#)
            let authenticatorData = Array(try #require(Base64URL.decode(assertion.response.authenticatorData)))
            let parsed = try ParsedAuthenticatorData(authenticatorData)
            #expect(parsed.rpIdHash == rpIdHash)
            #expect(parsed.flags == 0x05, "UP and UV, no attested credential")
            #expect(parsed.counter == expected)
            let signature = Array(try #require(Base64URL.decode(assertion.response.signature)))
            if algorithm == .eddsa { #expect(signature.count == 64) } else { #expect(signature.first == 0x30, "DER") }
            #expect(key.verifies(signature, authenticatorData: authenticatorData, clientDataJSON: clientDataJSON))
        }
        #expect(try await authenticator.credentials().map(\.signatureCounter) == [2])
    }

    @Test func syncedPasskeysSetTheBackupFlagsAndStayAtZero() async throws {
        let authenticator = SoftwarePasskeyAuthenticator(configuration: .init(synced: true))
        let registration = try ReadRegistration(try await authenticator.makeCredential(PasskeyOptions.creation()))
        #expect(registration.parsed.backupEligible && registration.parsed.backedUp)
        for _ in 0..<2 {
            let assertion = try await authenticator.getAssertion(PasskeyOptions.request())
            let parsed = try ParsedAuthenticatorData(Array(try #require(Base64URL.decode(assertion.response.authenticatorData))))
            #expect(parsed.flags == 0x1D)
            #expect(parsed.counter == 0)
        }
        #expect(try await authenticator.credentials().first?.synced == true)
    }

    @Test func userVerificationIsOnlyAFlagAndTheOriginIsTheConfiguredOne() async throws {
        let authenticator = SoftwarePasskeyAuthenticator(
            configuration: .init(origin: "https://evil.example.net", userVerifies: false))
        let registration = try ReadRegistration(try await authenticator.makeCredential(PasskeyOptions.creation()))
        #expect(registration.parsed.flags == 0x41)
        #expect(registration.clientData["origin"] as? String == "https://evil.example.net")
        await authenticator.setConfiguration(.init(userVerifies: true))
        let assertion = try await authenticator.getAssertion(PasskeyOptions.request())
        let parsed = try ParsedAuthenticatorData(Array(try #require(Base64URL.decode(assertion.response.authenticatorData))))
        #expect(parsed.userVerified)
    }

    @Test func allowCredentialsAndTheSelectionPickTheSigningPasskey() async throws {
        let authenticator = SoftwarePasskeyAuthenticator()
        let ada = try await authenticator.makeCredential(PasskeyOptions.creation())
        let bob = try await authenticator.makeCredential(
            PasskeyOptions.creation(userName: "bob@example.com", userHandle: Base64URL.encode(Array("user-0002".utf8))))
        #expect(try await authenticator.credentials().map(\.userName) == ["ada@example.com", "bob@example.com"])

        // A discoverable sign-in: the passkey made last, with its user handle.
        let any = try await authenticator.getAssertion(PasskeyOptions.request())
        #expect(any.id == bob.id)
        #expect(any.response.userHandle == Base64URL.encode(Array("user-0002".utf8)))
        // allowCredentials: only those.
        #expect(try await authenticator.getAssertion(PasskeyOptions.request(allow: [ada.id])).id == ada.id)
        await #expect(throws: PasskeyError.noCredential) {
            try await authenticator.getAssertion(PasskeyOptions.request(allow: [Base64URL.encode(Array("gone".utf8))]))
        }
        // Another relying party has none.
        await #expect(throws: PasskeyError.noCredential) {
            try await authenticator.getAssertion(PasskeyOptions.request(rpId: "example.org"))
        }
        // Chosen by user name, or by credential ID.
        await authenticator.select(.userName("ada@example.com"))
        #expect(try await authenticator.getAssertion(PasskeyOptions.request()).id == ada.id)
        await authenticator.select(.credentialID(bob.id))
        #expect(try await authenticator.getAssertion(PasskeyOptions.request()).id == bob.id)
        await authenticator.select(.userName("carol@example.com"))
        await #expect(throws: PasskeyError.noCredential) { try await authenticator.getAssertion(PasskeyOptions.request()) }
    }

    @Test func excludedCredentialsAndAcceptedAlgorithmsAreHonoured() async throws {
        let authenticator = SoftwarePasskeyAuthenticator()
        let first = try await authenticator.makeCredential(PasskeyOptions.creation())
        await #expect(throws: PasskeyError.alreadyRegistered) {
            try await authenticator.makeCredential(PasskeyOptions.creation(exclude: [first.id]))
        }
        // Another account's exclusion list does not name it: a second passkey for the same user
        // replaces the first, as a discoverable credential does.
        let second = try await authenticator.makeCredential(
            PasskeyOptions.creation(exclude: [Base64URL.encode(Array("elsewhere".utf8))]))
        #expect(try await authenticator.credentials().map(\.id) == [second.id])

        await #expect(throws: PasskeyError.notSupported(
            "this authenticator signs with COSE algorithm -7, which the relying party does not accept.")) {
            try await authenticator.makeCredential(PasskeyOptions.creation(algorithms: [-8, -257]))
        }
        // No parameters: ES256 and RS256, WebAuthn's default.
        _ = try await authenticator.makeCredential(PasskeyOptions.creation(algorithms: []))
        let ed = SoftwarePasskeyAuthenticator(configuration: .init(algorithm: .eddsa))
        await #expect(throws: PasskeyError.self) { try await ed.makeCredential(PasskeyOptions.creation(algorithms: [])) }
    }

    @Test func optionsThatAreNotBase64URLAreRefused() async throws {
        let authenticator = SoftwarePasskeyAuthenticator()
        await #expect(throws: PasskeyError.invalidOptions("The challenge is not base64url.")) {
            try await authenticator.makeCredential(PasskeyOptions.creation(challenge: "not base64url!"))
        }
        await #expect(throws: PasskeyError.invalidOptions("The credential ID is not base64url.")) {
            try await authenticator.getAssertion(PasskeyOptions.request(allow: ["a+b/"]))
        }
    }

    @Test func passkeysPersistAcrossInstancesOfOneStorage() async throws {
        let storage = InMemorySecureStorage()
        let first = SoftwarePasskeyAuthenticator(storage: storage, storageKey: "test.passkeys")
        let made = try await first.makeCredential(PasskeyOptions.creation())
        #expect(await storage.keys() == ["test.passkeys"])

        let second = SoftwarePasskeyAuthenticator(storage: storage, storageKey: "test.passkeys")
        let signed = try await second.getAssertion(PasskeyOptions.request())
        #expect(signed.id == made.id)
        // The counter is the storage's: the first instance goes on from the second's signature.
        let again = try await first.getAssertion(PasskeyOptions.request())
        let parsed = try ParsedAuthenticatorData(Array(try #require(Base64URL.decode(again.response.authenticatorData))))
        #expect(parsed.counter == 2)
        #expect(try await second.credentials(relyingPartyID: PasskeyOptions.rpId).map(\.signatureCounter) == [2])
        #expect(try await second.credentials(relyingPartyID: "example.org").isEmpty)

        // Another key of the same storage holds other passkeys.
        let other = SoftwarePasskeyAuthenticator(storage: storage, storageKey: "other.passkeys")
        await #expect(throws: PasskeyError.noCredential) { try await other.getAssertion(PasskeyOptions.request()) }

        // A lost passkey never signs again.
        try await second.deleteCredential(id: made.id)
        await #expect(throws: PasskeyError.noCredential) { try await first.getAssertion(PasskeyOptions.request()) }
        _ = try await first.makeCredential(PasskeyOptions.creation())
        try await first.deleteAllCredentials()
        #expect(await storage.keys() == [])
    }

    @Test func concurrentSignaturesNeverShareACounter() async throws {
        let authenticator = SoftwarePasskeyAuthenticator()
        _ = try await authenticator.makeCredential(PasskeyOptions.creation())
        let counters = try await withThrowingTaskGroup(of: UInt32.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let assertion = try await authenticator.getAssertion(PasskeyOptions.request())
                    return try ParsedAuthenticatorData(
                        Array(Base64URL.decode(assertion.response.authenticatorData) ?? Data())
                    ).counter
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counters.sorted() == Array(1...8))
    }

    @Test func aStorageThatFailsIsAPasskeyFailure() async throws {
        let storage = InMemorySecureStorage()
        await storage.setUnavailable("locked")
        let authenticator = SoftwarePasskeyAuthenticator(storage: storage)
        let error = await #expect(throws: PasskeyError.self) {
            try await authenticator.makeCredential(PasskeyOptions.creation())
        }
        #expect(error?.code == .passkeyFailed)
    }
}

@Suite("Passkey errors and the platform mapping")
struct PasskeyEncodingTests {
    @Test func errorsHaveStableCodes() {
        #expect(PasskeyError.cancelled.code.rawValue == "passkey_cancelled")
        #expect(PasskeyError.noCredential.code.rawValue == "passkey_no_credential")
        #expect(PasskeyError.alreadyRegistered.code.rawValue == "passkey_already_registered")
        #expect(PasskeyError.notSupported("x").code.rawValue == "passkey_not_supported")
        #expect(PasskeyError.invalidOptions("x").code.rawValue == "passkey_invalid_options")
        #expect(PasskeyError.failed("x").code.rawValue == "passkey_failed")
        #expect(PasskeyError(CancellationError()) == .cancelled)
        #expect(PasskeyError(PasskeyError.noCredential) == .noCredential)
        #expect(PasskeyError(URLError(.timedOut)).code == .passkeyFailed)
        #expect(PasskeyError.cancelled.recovery == .retry)
        #expect(PasskeyError.notSupported("x").recovery == .notRecoverable)
    }

    @Test func authorizationErrorsMapByTheirCode() {
        #expect(PasskeyError(authorizationErrorCode: 1001, description: "canceled") == .cancelled)
        #expect(PasskeyError(authorizationErrorCode: 1005, description: "not interactive") == .noCredential)
        #expect(PasskeyError(authorizationErrorCode: 1006, description: "excluded") == .alreadyRegistered)
        #expect(PasskeyError(authorizationErrorCode: 1004, description: "failed") == .failed("failed"))
    }

    @Test func platformOutputsMapToTheWebAuthnJSON() throws {
        let registration = PasskeyWire.registration(
            credentialID: Data([0xFB, 0xFF]), clientDataJSON: Data("{}".utf8), attestationObject: Data([0xA0]),
            attachment: "platform", transports: ["hybrid", "internal"])
        #expect(registration.id == "-_8")
        #expect(registration.rawID == "-_8")
        #expect(registration.response.clientDataJSON == "e30")
        #expect(registration.response.attestationObject == "oA")
        #expect(registration.response.transports == ["hybrid", "internal"])
        #expect(registration.authenticatorAttachment == "platform")

        let assertion = PasskeyWire.assertion(
            credentialID: Data([1]), clientDataJSON: Data("{}".utf8), authenticatorData: Data([2]), signature: Data([3]),
            userHandle: Data(), attachment: "cross-platform")
        #expect(assertion.response.userHandle == nil, "an empty user handle is none")
        #expect(assertion.response.authenticatorData == "Ag")
        #expect(assertion.response.signature == "Aw")
        #expect(assertion.authenticatorAttachment == "cross-platform")

        #expect(
            try PasskeyWire.credentialIDs([.init(id: "AQ"), .init(id: "Ag", transports: ["usb"])]) == [Data([1]), Data([2])])
        #expect(throws: PasskeyError.invalidOptions("The credential ID is not base64url.")) {
            try PasskeyWire.credentialIDs([.init(id: "")])
        }
        let longHandle = PasskeyOptions.creation(userHandle: Base64URL.encode([UInt8](repeating: 1, count: 65)))
        #expect(throws: PasskeyError.invalidOptions("The user handle is longer than 64 bytes.")) {
            try PasskeyWire.userID(longHandle)
        }
        #expect(PasskeyWire.UserVerification("required") == .required)
        #expect(PasskeyWire.UserVerification("sometimes") == .preferred)
        #expect(PasskeyWire.UserVerification(nil) == .preferred)
    }
}
