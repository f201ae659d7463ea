import Crypto
import Foundation

/// The recovery postcard scheme (Recovery-Postcard.md): from a 32-byte shared secret and a 32-byte
/// nonce, `SHARED_POSTCARD = KDF_X9_63_SHA256(SHARED_SECRET, NONCE)` (32 bytes); its first 10
/// bytes are the recovery code's random bytes, the next 16 `RECOVERY_PUK_BASE_KEY`, from which
/// each PUK is derived with its derivation index (``RecoveryPUK/derive(baseKey:index:)``).
public enum RecoveryPostcard {
    /// What a shared secret and a nonce derive.
    public struct Derived: Sendable {
        /// `RECOVERY_CODE`.
        public let recoveryCode: RecoveryCode
        /// `RECOVERY_PUK_BASE_KEY` (16 bytes).
        public let pukBaseKey: SymmetricKey
    }

    /// `KDF_X9_63_SHA256(secret, sharedInfo)` (ANSI X9.63 with SHA-256): the blocks
    /// `SHA256(secret ‖ counter ‖ sharedInfo)` for the 32-bit big-endian counter from 1, truncated.
    ///
    /// - Parameters:
    ///   - secret: The shared secret `Z`.
    ///   - sharedInfo: The shared information (the postcard's nonce).
    ///   - outputByteCount: How many bytes to derive.
    /// - Returns: The derived bytes.
    public static func x963KDF(secret: Data, sharedInfo: Data, outputByteCount: Int) -> Data {
        var output = Data()
        var counter: UInt32 = 1
        while output.count < outputByteCount {
            var hash = SHA256()
            hash.update(data: secret)
            hash.update(data: Data([UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF)]))
            hash.update(data: sharedInfo)
            output.append(contentsOf: hash.finalize())
            counter += 1
        }
        return output.prefix(outputByteCount)
    }

    /// Derives the recovery code and the PUK base key of a postcard.
    ///
    /// - Parameters:
    ///   - sharedSecret: `SHARED_SECRET` (32 bytes: random, or the printing service's shared secret).
    ///   - nonce: `NONCE` (32 bytes).
    /// - Returns: The recovery code and `RECOVERY_PUK_BASE_KEY`.
    /// - Throws: `PowerAuthError.invalidLength` when the secret or nonce is not 32 bytes.
    public static func derive(sharedSecret: Data, nonce: Data) throws(PowerAuthError) -> Derived {
        try Bytes.require(sharedSecret, count: 32, field: "postcard shared secret")
        try Bytes.require(nonce, count: 32, field: "postcard nonce")
        let shared = Array(x963KDF(secret: sharedSecret, sharedInfo: nonce, outputByteCount: 32))
        let code = try ActivationCode(randomBytes: shared[0..<10])
        return Derived(recoveryCode: RecoveryCode(code: code), pukBaseKey: SymmetricKey(data: shared[10..<26]))
    }
}
