import Crypto
import Foundation
import KeywayPowerAuth
import Testing

@Suite("Activation status blob")
struct ActivationStatusTests {
    static let ivCases = Vectors.load("activation-status-blob-iv")
    static let dataCases = Vectors.load("activation-status-blob-data")

    @Test func vectorFilesAreComplete() {
        #expect(Self.ivCases.count == 32)
        #expect(Self.dataCases.count == 8)
    }

    @Test(arguments: ivCases)
    func iv(_ vector: VectorCase) throws {
        let iv = try ActivationStatusBlob.iv(
            transportKey: vector.key("transportKey"), challenge: vector.bytes("challenge"), nonce: vector.bytes("nonce"))
        #expect(iv == (try vector.bytes("iv")))
    }

    @Test(arguments: dataCases)
    func decryptsAndDecodes(_ vector: VectorCase) throws {
        let transportKey = try vector.key("transportKey")
        let blob = try ActivationStatusBlob(
            decrypting: vector.bytes("encryptedStatusBlob"), transportKey: transportKey,
            challenge: vector.bytes("challenge"), nonce: vector.bytes("nonce"))
        #expect(blob.state.byte == UInt8(try vector.value("activationStatus")))
        #expect(blob.currentVersion == UInt8(try vector.value("currentVersion")))
        #expect(blob.upgradeVersion == UInt8(try vector.value("upgradeVersion")))
        #expect(blob.failedAttempts == UInt8(try vector.value("failedAttempts")))
        #expect(blob.maxFailedAttempts == UInt8(try vector.value("maxFailedAttempts")))
        #expect(blob.counterLookAhead == UInt8(try vector.value("ctrLookAhead")))
        #expect(blob.counterByte == UInt8(try vector.value("ctrByte")))
        #expect(blob.counterDataHash == (try vector.bytes("ctrDataHash")))
        let distance = try blob.counterDistance(from: vector.bytes("ctrData"), transportKey: transportKey)
        #expect(distance == Int(try vector.value("counterDistance")))
    }

    @Test func states() {
        #expect(ActivationState(byte: 1) == .created)
        #expect(ActivationState(byte: 2) == .pendingCommit)
        #expect(ActivationState(byte: 3) == .active)
        #expect(ActivationState(byte: 4) == .blocked)
        #expect(ActivationState(byte: 5) == .removed)
        #expect(ActivationState(byte: 9) == .unknown(9))
        #expect(ActivationState.unknown(9).byte == 9)
    }

    @Test func malformedBlobsThrow() throws {
        #expect(throws: PowerAuthError.invalidLength(field: "status blob", expected: "32", actual: 31)) {
            try ActivationStatusBlob(decoding: Data(repeating: 0, count: 31))
        }
        #expect(throws: PowerAuthError.invalidStatusBlob) { try ActivationStatusBlob(decoding: Data(repeating: 0, count: 32)) }
        let key = SymmetricKey(size: .bits128)
        #expect(throws: PowerAuthError.invalidLength(field: "status challenge", expected: "16", actual: 15)) {
            try ActivationStatusBlob.iv(transportKey: key, challenge: Data(count: 15), nonce: Data(count: 16))
        }
        #expect(throws: PowerAuthError.invalidLength(field: "encrypted status blob", expected: "32", actual: 33)) {
            try ActivationStatusBlob(decrypting: Data(count: 33), transportKey: key, challenge: Data(count: 16), nonce: Data(count: 16))
        }
        // Decrypting garbage with a wrong key yields no magic.
        #expect(throws: PowerAuthError.invalidStatusBlob) {
            try ActivationStatusBlob(decrypting: Data(count: 32), transportKey: key, challenge: Data(count: 16), nonce: Data(count: 16))
        }
    }
}
