import Crypto
import Foundation
import KeywayPowerAuth
import Testing

@Suite("ECIES envelopes 3.0–3.3")
struct EciesTests {
    static let files = ["30", "31", "32", "33"].flatMap { version in
        ["Application", "Activation"].map { "E2ee_\($0)_Scope_Test_Vectors_\(version)" }
    }
    static let cases = files.flatMap { Vectors.loadE2EE($0) }

    @Test func vectorFilesAreComplete() {
        #expect(Self.cases.count == 200)
    }

    /// The vector's context, its `SHARED_INFO_2_BASE` recomputed from the application secret.
    static func context(_ vector: VectorCase) throws -> EciesContext {
        let version = try #require(PowerAuthVersion(rawValue: try vector.value("protocolVersion")))
        let secret = try vector.value("applicationSecret")
        let activationID = vector.input["activationId"]
        let base = try activationID == nil
            ? EciesContext.applicationScopeSharedInfo2Base(applicationSecret: secret)
            : EciesContext.activationScopeSharedInfo2Base(applicationSecret: secret, transportKey: vector.key("transportKey"))
        #expect(base == (try vector.bytes("sharedInfo2Base")))
        let associated = EciesContext.associatedData(
            version: version, applicationKey: try vector.value("applicationKey"), activationID: activationID,
            temporaryKeyID: vector.input["temporaryKeyId"])
        let key = try EciesEnvelopeKey(bytes: vector.bytes("envelopeKey"), ephemeralPublicKey: vector.bytes("requestEphemeralPublicKey"))
        return EciesContext(version: version, envelopeKey: key, sharedInfo2Base: base, associatedData: associated)
    }

    @Test(arguments: cases)
    func requestAndResponse(_ vector: VectorCase) throws {
        let context = try Self.context(vector)
        let requestNonce = try vector.input["requestNonce"].map { _ in try vector.bytes("requestNonce") }
        let requestTimestamp = vector.input["timestampRequest"].flatMap(UInt64.init)
        // A 3.1 response reuses the request's nonce.
        let responseNonce = try vector.input["responseNonce"].map { _ in try vector.bytes("responseNonce") } ?? requestNonce
        let responseTimestamp = vector.input["timestampResponse"].flatMap(UInt64.init)

        let request = try context.encrypt(
            Data(try vector.value("requestData").utf8), direction: .request, nonce: requestNonce, timestamp: requestTimestamp)
        #expect(request.encryptedData == (try vector.bytes("encryptedDataRequest")))
        #expect(request.mac == (try vector.bytes("requestMac")))
        #expect(request.ephemeralPublicKey == (try vector.bytes("requestEphemeralPublicKey")))

        let response = try context.encrypt(
            Data(try vector.value("responseData").utf8), direction: .response, nonce: responseNonce, timestamp: responseTimestamp)
        #expect(response.encryptedData == (try vector.bytes("encryptedDataResponse")))
        #expect(response.mac == (try vector.bytes("responseMac")))
        #expect(response.ephemeralPublicKey == nil)

        let received = EciesPayload(
            encryptedData: try vector.bytes("encryptedDataRequest"), mac: try vector.bytes("requestMac"),
            ephemeralPublicKey: try vector.bytes("requestEphemeralPublicKey"), nonce: requestNonce, timestamp: requestTimestamp)
        #expect(String(decoding: try context.decrypt(received, direction: .request), as: UTF8.self) == (try vector.value("requestData")))
        let answer = EciesPayload(
            encryptedData: try vector.bytes("encryptedDataResponse"), mac: try vector.bytes("responseMac"),
            nonce: responseNonce, timestamp: responseTimestamp)
        #expect(String(decoding: try context.decrypt(answer, direction: .response), as: UTF8.self) == (try vector.value("responseData")))

        // A changed byte, or the request read as a response, is refused.
        var tampered = received
        tampered.encryptedData[0] ^= 1
        #expect(throws: PowerAuthError.authenticationFailed) { try context.decrypt(tampered, direction: .request) }
        if context.version.usesTimestamp {
            #expect(throws: PowerAuthError.authenticationFailed) { try context.decrypt(received, direction: .response) }
            var late = received
            late.timestamp = (requestTimestamp ?? 0) + 1
            #expect(throws: PowerAuthError.authenticationFailed) { try context.decrypt(late, direction: .request) }
        }
    }

    @Test(arguments: PowerAuthVersion.allCases)
    func envelopeKeyAgreementRoundTrip(_ version: PowerAuthVersion) throws {
        let server = P256.KeyAgreement.PrivateKey()
        let sharedInfo1 = EciesSharedInfo1.applicationScopeGeneric.bytes
        for compressed in [true, false] {
            let client = try EciesEnvelopeKey.forRequest(
                publicKey: server.publicKey, sharedInfo1: sharedInfo1, version: version, compressed: compressed)
            #expect(client.ephemeralPublicKey.count == (compressed ? 33 : 65))
            let serverKey = try EciesEnvelopeKey.forResponse(
                privateKey: server, ephemeralPublicKey: client.ephemeralPublicKey, sharedInfo1: sharedInfo1, version: version)
            #expect(serverKey.encryptionKey.bytes == client.encryptionKey.bytes)
            #expect(serverKey.macKey.bytes == client.macKey.bytes)
            #expect(serverKey.ivKey.bytes == client.ivKey.bytes)

            let base = EciesContext.applicationScopeSharedInfo2Base(applicationSecret: "c2VjcmV0c2VjcmV0c2VjcmV0")
            let associated = EciesContext.associatedData(version: version, applicationKey: "a2V5", activationID: nil, temporaryKeyID: "kid")
            let clientContext = EciesContext(version: version, envelopeKey: client, sharedInfo2Base: base, associatedData: associated)
            let serverContext = EciesContext(version: version, envelopeKey: serverKey, sharedInfo2Base: base, associatedData: associated)
            let nonce = PowerAuthHashCounter.random()
            let sealed = try clientContext.encrypt(Data("hello".utf8), direction: .request, nonce: nonce, timestamp: 1_749_762_303_600)
            #expect(try serverContext.decrypt(sealed, direction: .request) == Data("hello".utf8))
            let other = try EciesEnvelopeKey.forRequest(publicKey: server.publicKey, sharedInfo1: EciesSharedInfo1.upgrade.bytes, version: version)
            #expect(other.encryptionKey.bytes != client.encryptionKey.bytes)
        }
    }

    @Test func envelopeKeyDerivationMatchesX963() throws {
        // X9.63-KDF(SHA-256) of the ECDH secret of a published key pair, computed independently:
        // info "3.3" ‖ "/pa/generic/application" ‖ KEY_EPH_PUB (3.2+), and without the version (3.0, 3.1).
        let vector = try #require(Vectors.load("compute-master-secret-key").first)
        let ephemeral = try PowerAuthKeys.privateKey(vector.bytes("devicePrivateKey"))
        let server = try PowerAuthKeys.publicKey(vector.bytes("serverPublicKey"))
        let info1 = EciesSharedInfo1.applicationScopeGeneric.bytes
        let v33 = try EciesEnvelopeKey.forRequest(publicKey: server, sharedInfo1: info1, version: .v33, ephemeralPrivateKey: ephemeral, compressed: false)
        #expect(v33.ephemeralPublicKey == (try vector.bytes("devicePublicKey")))
        #expect((v33.encryptionKey.bytes + v33.macKey.bytes + v33.ivKey.bytes).base64EncodedString()
            == "+e7S3SVSUiBBxnDV55FiKt/PLQFlxnqvQcCnpTM4Pa2BzqSt93YO8Cb54/lWFwe8")
        let v31 = try EciesEnvelopeKey.forRequest(publicKey: server, sharedInfo1: info1, version: .v31, ephemeralPrivateKey: ephemeral, compressed: false)
        #expect((v31.encryptionKey.bytes + v31.macKey.bytes + v31.ivKey.bytes).base64EncodedString()
            == "tLo0FpKUdSUey1+aWqkkpKRBHBbqinq04fU7nd8ngTX0WJeUkiHfXzvfSzWh32fN")
    }

    @Test func missingValuesThrow() throws {
        let key = try EciesEnvelopeKey(bytes: Data(count: 48), ephemeralPublicKey: Data())
        let v32 = EciesContext(version: .v32, envelopeKey: key, sharedInfo2Base: Data(), associatedData: Data())
        #expect(throws: PowerAuthError.missingValue(field: "ECIES nonce")) {
            try v32.encrypt(Data(), direction: .request, nonce: nil, timestamp: 1)
        }
        #expect(throws: PowerAuthError.missingValue(field: "ECIES timestamp")) {
            try v32.encrypt(Data(), direction: .request, nonce: Data(count: 16), timestamp: nil)
        }
        #expect(throws: PowerAuthError.invalidLength(field: "ECIES nonce", expected: "16", actual: 8)) {
            try v32.encrypt(Data(), direction: .request, nonce: Data(count: 8), timestamp: 1)
        }
        #expect(throws: PowerAuthError.invalidLength(field: "envelope key", expected: "48", actual: 32)) {
            try EciesEnvelopeKey(bytes: Data(count: 32), ephemeralPublicKey: Data())
        }
        #expect(throws: PowerAuthError.invalidKey(field: "public key")) {
            try EciesEnvelopeKey.forResponse(privateKey: .init(), ephemeralPublicKey: Data([2, 3]), sharedInfo1: Data(), version: .v33)
        }
        // 3.0 carries neither nonce nor timestamp.
        let v30 = EciesContext(version: .v30, envelopeKey: key, sharedInfo2Base: Data(), associatedData: Data())
        let sealed = try v30.encrypt(Data("x".utf8), direction: .response, nonce: nil, timestamp: nil)
        #expect(sealed.nonce == nil && sealed.timestamp == nil)
        #expect(try v30.decrypt(sealed, direction: .response) == Data("x".utf8))
    }
}
