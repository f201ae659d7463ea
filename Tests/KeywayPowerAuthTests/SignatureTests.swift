import Crypto
import Foundation
import KeywayPowerAuth
import Testing

@Suite("Online and offline signatures")
struct SignatureTests {
    static let v3Cases = Vectors.load("signatures-v3")
    static let v31Cases = Vectors.load("signatures-v31")
    static let offlineCases = Vectors.load("signatures-offline")

    @Test func vectorFilesAreComplete() {
        #expect(Self.v3Cases.count == 300)
        #expect(Self.v31Cases.count == 300)
        #expect(Self.offlineCases.count == 200)
    }

    /// The keys of the vector's factors, in factor order.
    static func keys(_ vector: VectorCase) throws -> (PowerAuthSignatureFactors, [SymmetricKey]) {
        let type = try vector.value("signatureType")
        guard let factors = PowerAuthSignatureFactors(typeName: type) else { throw VectorError.missing(type) }
        var keys: [SymmetricKey] = []
        if factors.contains(.possession) { keys.append(try vector.key("signaturePossessionKey")) }
        if factors.contains(.knowledge) { keys.append(try vector.key("signatureKnowledgeKey")) }
        if factors.contains(.biometry) { keys.append(try vector.key("signatureBiometryKey")) }
        #expect(factors.typeName == type)
        return (factors, keys)
    }

    @Test(arguments: v3Cases)
    func v3(_ vector: VectorCase) throws {
        let (factors, keys) = try Self.keys(vector)
        let data = try vector.bytes("data")
        let counter = try vector.bytes("counterData")
        let signature = try PowerAuthSignature.compute(data: data, keys: keys, counterData: counter, format: .v3)
        #expect(signature == (try vector.value("signature")))
        #expect(signature.split(separator: "-").count == factors.count)
    }

    @Test(arguments: v31Cases)
    func v31(_ vector: VectorCase) throws {
        let (factors, keys) = try Self.keys(vector)
        let data = try vector.bytes("data")
        let counter = try vector.bytes("counterData")
        let signature = try PowerAuthSignature.compute(data: data, keys: keys, counterData: counter, format: .v31)
        #expect(signature == (try vector.value("signature")))
        #expect(Data(base64Encoded: signature)?.count == 16 * factors.count)
    }

    @Test(arguments: offlineCases)
    func offline(_ vector: VectorCase) throws {
        let (_, keys) = try Self.keys(vector)
        guard let digits = Int(try vector.value("signatureComponentLength")) else { throw VectorError.missing("length") }
        let signature = try PowerAuthSignature.compute(
            data: vector.bytes("data"), keys: keys, counterData: vector.bytes("counterData"), format: .decimal(digits: digits))
        #expect(signature == (try vector.value("signature")))
    }

    @Test func serverVerifiesWithinTheLookAheadWindow() throws {
        let vector = try #require(Self.v31Cases.last)
        let (_, keys) = try Self.keys(vector)
        let data = try vector.bytes("data")
        let serverCounter = try vector.bytes("counterData")
        var clientCounter = serverCounter
        for _ in 0..<5 { clientCounter = PowerAuthHashCounter.next(clientCounter) }
        let signature = try PowerAuthSignature.compute(data: data, keys: keys, counterData: clientCounter, format: .v31)
        let match = try #require(
            try PowerAuthSignature.verify(signature: signature, data: data, keys: keys, counterData: serverCounter, lookAhead: 20, format: .v31))
        #expect(match.counterOffset == 5)
        #expect(match.matchedCounterData == clientCounter)
        #expect(match.nextCounterData == PowerAuthHashCounter.next(clientCounter))
        // Outside the window, or another datum, it fails.
        #expect(try PowerAuthSignature.verify(signature: signature, data: data, keys: keys, counterData: serverCounter, lookAhead: 5, format: .v31) == nil)
        #expect(try PowerAuthSignature.verify(signature: signature, data: data + [0], keys: keys, counterData: serverCounter, format: .v31) == nil)
        // The vector's own signature matches at offset 0.
        let own = try PowerAuthSignature.verify(
            signature: vector.value("signature"), data: data, keys: keys, counterData: serverCounter, format: .v31)
        #expect(own?.counterOffset == 0)
    }

    @Test func hashCounterFoldsSHA256() {
        let counter = Data(0..<16)
        let digest = Array(SHA256.hash(data: counter))
        #expect(PowerAuthHashCounter.next(counter) == Data((0..<16).map { digest[$0] ^ digest[$0 + 16] }))
        #expect(PowerAuthHashCounter.random().count == 16)
    }

    @Test func normalizedData() {
        let nonce = Data(repeating: 1, count: 16)
        let request = PowerAuthSignature.requestData(method: "post", uriIdentifier: "/pa/signature/validate", nonce: nonce, body: Data("{}".utf8))
        #expect(request == "POST&L3BhL3NpZ25hdHVyZS92YWxpZGF0ZQ==&AQEBAQEBAQEBAQEBAQEBAQ==&e30=")
        #expect(PowerAuthSignature.signedData(requestData: request, applicationSecret: "c2VjcmV0")
            == Data((request + "&c2VjcmV0").utf8))
        let offline = PowerAuthSignature.offlineSignedData(uriIdentifier: "/operation/authorize/offline", nonce: nonce, data: Data("A".utf8))
        #expect(String(decoding: offline, as: UTF8.self) == "POST&L29wZXJhdGlvbi9hdXRob3JpemUvb2ZmbGluZQ==&AQEBAQEBAQEBAQEBAQEBAQ==&QQ==&offline")
        let query = PowerAuthSignature.canonicalQuery([(key: "b", value: "2"), (key: "a", value: "z"), (key: "a", value: "y")])
        #expect(String(decoding: query, as: UTF8.self) == "a=y&a=z&b=2")
    }

    @Test func factorNames() {
        #expect(PowerAuthSignatureFactors(typeName: "possession_biometry") == [.possession, .biometry])
        #expect(PowerAuthSignatureFactors(typeName: "knowledge_possession") == nil)
        #expect(PowerAuthSignatureFactors(typeName: "possession_possession") == nil)
        #expect(PowerAuthSignatureFactors(typeName: "") == nil)
        #expect(PowerAuthSignatureFactors(typeName: "possession_knowledge_biometry")?.count == 3)
    }

    @Test func malformedInputThrows() {
        let key = SymmetricKey(size: .bits128)
        #expect(throws: PowerAuthError.invalidLength(field: "counter data", expected: "16", actual: 8)) {
            try PowerAuthSignature.compute(data: Data(), keys: [key], counterData: Data(count: 8), format: .v31)
        }
        #expect(throws: PowerAuthError.invalidLength(field: "signature keys", expected: "1 to 3", actual: 0)) {
            try PowerAuthSignature.compute(data: Data(), keys: [], counterData: Data(count: 16), format: .v31)
        }
        #expect(throws: PowerAuthError.malformedSignature("decimal components have 4 to 8 digits")) {
            try PowerAuthSignature.compute(data: Data(), keys: [key], counterData: Data(count: 16), format: .decimal(digits: 9))
        }
    }
}
