import Crypto
import Foundation
import KeywayTestSupport
import SwiftASN1
import Testing
import X509

@testable import KeywayServer

@Suite("App Attest verification")
struct AppAttestVerifierTests {
    static let appID = "ABCDE12345.com.example.keyway"
    let authority: TestAppAttestAuthority
    let verifier: AppAttestVerifier
    let now = Date()

    init() throws {
        authority = try TestAppAttestAuthority(now: now)
        verifier = AppAttestVerifier(roots: [try Certificate(pemEncoded: authority.rootPEM)])
    }

    static let clientDataHash = Data(SHA256.hash(data: Data("challenge".utf8)))

    func attest(
        _ key: TestAppAttestAuthority.Key, by authority: TestAppAttestAuthority? = nil, appID: String = appID,
        clientDataHash: Data = clientDataHash, development: Bool = false,
        tampering: TestAppAttestAuthority.Tampering = .init(), accepting appIDs: [String] = [appID],
        environment: AppAttestEnvironment = .production, keyID: Data? = nil
    ) async throws -> AttestedKey {
        let object = try (authority ?? self.authority).attestation(
            of: key, clientDataHash: clientDataHash, appID: appID, development: development, tampering: tampering)
        return try await verifier.verifyAttestation(
            object, keyID: keyID ?? key.id, clientDataHash: Self.clientDataHash, appIDs: appIDs,
            environment: environment, now: now)
    }

    func refusal(_ body: () async throws -> AttestedKey) async -> AppAttestFailure? {
        do {
            _ = try await body()
            return nil
        } catch { return error as? AppAttestFailure }
    }

    /// A real key attested on an iPhone (Fixtures/app-attest/README.md).
    struct DeviceCapture: Decodable {
        var appID: String
        var keyId: String
        var attestation: String
        var attestationClientData: String
        var validAt: String
        var expiredAt: String
        var assertion: String
        var assertionClientData: String
        var assertionCounter: UInt32

        static func load() throws -> DeviceCapture {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Fixtures/app-attest/ios-14.4-development.json")
            return try JSONDecoder().decode(DeviceCapture.self, from: Data(contentsOf: url))
        }

        func bytes(_ base64: String) throws -> Data { try #require(Data(base64Encoded: base64)) }
        func hash(_ base64: String) throws -> Data { Data(SHA256.hash(data: try bytes(base64))) }
        func date(_ text: String) throws -> Date {
            try #require(ISO8601DateFormatter.withFractionalSeconds.date(from: text))
        }
    }

    @Test("A key attested on a real iPhone verifies against Apple's root, and so does its assertion")
    func deviceCapture() async throws {
        let capture = try DeviceCapture.load()
        let apple = AppAttestVerifier(roots: [try AppleAppAttestRoot.certificate()])
        let object = try capture.bytes(capture.attestation)
        let keyID = try capture.bytes(capture.keyId)
        let clientDataHash = try capture.hash(capture.attestationClientData)
        let during = try capture.date(capture.validAt)
        let key = try await apple.verifyAttestation(
            object, keyID: keyID, clientDataHash: clientDataHash, appIDs: ["ZZZZZ99999.com.other", capture.appID],
            environment: .development, now: during)
        #expect(key.appID == capture.appID)
        #expect(Data(SHA256.hash(data: key.publicKey)) == keyID)
        #expect(!key.receipt.isEmpty)
        let counter = try apple.verifyAssertion(
            try capture.bytes(capture.assertion), clientDataHash: try capture.hash(capture.assertionClientData), key: key,
            previousCounter: 0)
        #expect(counter == capture.assertionCounter)
        #expect(throws: AppAttestFailure.counterNotIncreasing) {
            try apple.verifyAssertion(
                try capture.bytes(capture.assertion), clientDataHash: try capture.hash(capture.assertionClientData),
                key: key, previousCounter: counter)
        }
        // The same attestation: once its certificate expired, for another challenge, another App
        // ID, the production environment, or under a root other than Apple's.
        let after = try capture.date(capture.expiredAt)
        await #expect(throws: AppAttestFailure.untrustedCertificate) {
            try await apple.verifyAttestation(
                object, keyID: keyID, clientDataHash: clientDataHash, appIDs: [capture.appID], environment: .development,
                now: after)
        }
        await #expect(throws: AppAttestFailure.nonceMismatch) {
            try await apple.verifyAttestation(
                object, keyID: keyID, clientDataHash: Data(SHA256.hash(data: Data("another".utf8))),
                appIDs: [capture.appID], environment: .development, now: during)
        }
        await #expect(throws: AppAttestFailure.appIDMismatch) {
            try await apple.verifyAttestation(
                object, keyID: keyID, clientDataHash: clientDataHash, appIDs: [Self.appID], environment: .development,
                now: during)
        }
        await #expect(throws: AppAttestFailure.wrongEnvironment) {
            try await apple.verifyAttestation(
                object, keyID: keyID, clientDataHash: clientDataHash, appIDs: [capture.appID], environment: .production,
                now: during)
        }
        await #expect(throws: AppAttestFailure.untrustedCertificate) {
            try await verifier.verifyAttestation(
                object, keyID: keyID, clientDataHash: clientDataHash, appIDs: [capture.appID], environment: .development,
                now: during)
        }
    }

    @Test("The carried root is Apple's App Attestation Root CA, by fingerprint")
    func appleRootFingerprint() throws {
        let certificate = try AppleAppAttestRoot.certificate()
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        let fingerprint = SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02x", $0) }.joined()
        #expect(fingerprint == "1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932")
        #expect(certificate.subject.description.contains("Apple App Attestation Root CA"))
    }

    @Test("A well-formed attestation verifies, in either environment")
    func accepts() async throws {
        let key = TestAppAttestAuthority.Key()
        let attested = try await attest(key)
        #expect(attested.keyID == key.id)
        #expect(attested.publicKey == key.privateKey.publicKey.x963Representation)
        #expect(attested.environment == .production)
        let development = try await attest(key, development: true, environment: .development)
        #expect(development.environment == .development)
    }

    @Test("Each refusal of an attestation names its check")
    func refusals() async throws {
        let key = TestAppAttestAuthority.Key()
        let stranger = try TestAppAttestAuthority(now: now, name: "Another")
        #expect(await refusal { try await attest(key, by: stranger) } == .untrustedCertificate)
        #expect(
            await refusal {
                try await attest(key, clientDataHash: Data(SHA256.hash(data: Data("other".utf8))))
            } == .nonceMismatch)
        var forgedNonce = TestAppAttestAuthority.Tampering()
        forgedNonce.nonce = Data(repeating: 7, count: 32)
        #expect(await refusal { try await attest(key, tampering: forgedNonce) } == .nonceMismatch)
        #expect(
            await refusal { try await attest(key, appID: "ZZZZZ99999.com.evil.app") }
                == .appIDMismatch)
        #expect(
            await refusal { try await attest(key, keyID: TestAppAttestAuthority.Key().id) }
                == .keyIDMismatch)
        var otherCredential = TestAppAttestAuthority.Tampering()
        otherCredential.credentialID = Data(repeating: 1, count: 32)
        #expect(
            await refusal { try await attest(key, tampering: otherCredential) }
                == .keyIDMismatch)
        var counted = TestAppAttestAuthority.Tampering()
        counted.counter = 1
        #expect(await refusal { try await attest(key, tampering: counted) } == .counterNotZero)
        #expect(
            await refusal { try await attest(key, development: true) } == .wrongEnvironment)
        var packed = TestAppAttestAuthority.Tampering()
        packed.format = "packed"
        #expect(await refusal { try await attest(key, tampering: packed) } == .unsupportedFormat("packed"))
        do {
            _ = try await verifier.verifyAttestation(
                Data([0xA1, 0x63]), keyID: key.id, clientDataHash: Self.clientDataHash, appIDs: [Self.appID],
                environment: .production, now: now)
            Issue.record("a truncated object was accepted")
        } catch {
            guard case .malformed = error else { return #expect(Bool(false), "\(error)") }
        }
        // Certificates are checked at the given time.
        do {
            let object = try authority.attestation(of: key, clientDataHash: Self.clientDataHash, appID: Self.appID)
            _ = try await verifier.verifyAttestation(
                object, keyID: key.id, clientDataHash: Self.clientDataHash, appIDs: [Self.appID], environment: .production,
                now: now.addingTimeInterval(20 * 365 * 86_400))
            Issue.record("an expired certificate was accepted")
        } catch let error as AppAttestFailure {
            #expect(error == .untrustedCertificate)
        }
    }

    @Test("Assertions verify with the attested key and a counter that increases")
    func assertions() async throws {
        let key = TestAppAttestAuthority.Key()
        let attested = try await attest(key)
        let data = Data(SHA256.hash(data: Data("request".utf8)))
        let first = try TestAppAttestAuthority.assertion(of: key, clientDataHash: data, appID: Self.appID, counter: 1)
        #expect(try verifier.verifyAssertion(first, clientDataHash: data, key: attested, previousCounter: 0) == 1)
        // Replayed: its counter is not above the last one.
        #expect(throws: AppAttestFailure.counterNotIncreasing) {
            try verifier.verifyAssertion(first, clientDataHash: data, key: attested, previousCounter: 1)
        }
        // Over other client data, or by another key.
        #expect(throws: AppAttestFailure.badSignature) {
            try verifier.verifyAssertion(
                first, clientDataHash: Data(SHA256.hash(data: Data("other".utf8))), key: attested, previousCounter: 0)
        }
        let other = try TestAppAttestAuthority.assertion(
            of: TestAppAttestAuthority.Key(), clientDataHash: data, appID: Self.appID, counter: 5)
        #expect(throws: AppAttestFailure.badSignature) {
            try verifier.verifyAssertion(other, clientDataHash: data, key: attested, previousCounter: 0)
        }
        // For another App ID.
        let elsewhere = try TestAppAttestAuthority.assertion(
            of: key, clientDataHash: data, appID: "ZZZZZ99999.com.evil.app", counter: 2)
        #expect(throws: AppAttestFailure.appIDMismatch) {
            try verifier.verifyAssertion(elsewhere, clientDataHash: data, key: attested, previousCounter: 1)
        }
        #expect(throws: AppAttestFailure.malformed("trailing bytes after the item")) {
            try verifier.verifyAssertion(first + Data([0]), clientDataHash: data, key: attested, previousCounter: 0)
        }
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
