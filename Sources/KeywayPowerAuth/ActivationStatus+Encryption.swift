import Crypto
import CryptoExtras
import Foundation

extension ActivationStatusBlob {
    /// Builds a status blob, as a server does before encrypting it.
    ///
    /// - Parameters:
    ///   - state: The activation's state.
    ///   - currentVersion: The activation's protocol major version (3).
    ///   - upgradeVersion: The highest major version the server supports (3).
    ///   - counterByte: The least significant byte of the numeric counter `CTR`.
    ///   - failedAttempts: Failed attempts in a row.
    ///   - maxFailedAttempts: Failed attempts in a row that block the activation.
    ///   - counterLookAhead: The server's look-ahead window.
    ///   - counterDataHash: ``counterDataHash(_:transportKey:)`` of the server's `CTR_DATA` (16 bytes).
    /// - Throws: `PowerAuthError.invalidLength` when the hash is not 16 bytes.
    public init(
        state: ActivationState, currentVersion: UInt8 = 3, upgradeVersion: UInt8 = 3, counterByte: UInt8,
        failedAttempts: UInt8, maxFailedAttempts: UInt8, counterLookAhead: UInt8, counterDataHash: Data
    ) throws(PowerAuthError) {
        try Bytes.require(counterDataHash, count: 16, field: "counter data hash")
        self.state = state
        self.currentVersion = currentVersion
        self.upgradeVersion = upgradeVersion
        self.counterByte = counterByte
        self.failedAttempts = failedAttempts
        self.maxFailedAttempts = maxFailedAttempts
        self.counterLookAhead = counterLookAhead
        self.counterDataHash = counterDataHash
    }

    /// The 32 plain bytes: `0xDEC0DED1`, status, versions, five reserved zero bytes, counter byte,
    /// failure counts, look-ahead and the counter data hash.
    public var encoded: Data {
        var bytes = Self.magic
        bytes += [state.byte, currentVersion, upgradeVersion, 0, 0, 0, 0, 0]
        bytes += [counterByte, failedAttempts, maxFailedAttempts, counterLookAhead]
        return Data(bytes) + counterDataHash
    }

    /// The blob encrypted for a status response (``encrypt(_:transportKey:challenge:nonce:)``).
    ///
    /// - Parameters:
    ///   - transportKey: `KEY_TRANSPORT` of the activation.
    ///   - challenge: The client's `STATUS_CHALLENGE` (16 bytes).
    ///   - nonce: The server's fresh `STATUS_NONCE` (16 bytes).
    /// - Returns: 32 encrypted bytes.
    /// - Throws: `PowerAuthError.invalidLength` for bad sizes.
    public func encrypted(transportKey: SymmetricKey, challenge: Data, nonce: Data) throws(PowerAuthError) -> Data {
        try Self.encrypt(encoded, transportKey: transportKey, challenge: challenge, nonce: nonce)
    }

    /// Encrypts 32 plain status bytes: AES-128-CBC without padding under `KEY_TRANSPORT`, with
    /// ``iv(transportKey:challenge:nonce:)``.
    ///
    /// - Parameters:
    ///   - blob: The 32 plain bytes.
    ///   - transportKey: `KEY_TRANSPORT`.
    ///   - challenge: `STATUS_CHALLENGE` (16 bytes).
    ///   - nonce: `STATUS_NONCE` (16 bytes).
    /// - Returns: 32 encrypted bytes.
    /// - Throws: `PowerAuthError.invalidLength` for bad sizes.
    public static func encrypt(_ blob: Data, transportKey: SymmetricKey, challenge: Data, nonce: Data) throws(PowerAuthError) -> Data {
        try Bytes.require(blob, count: 32, field: "status blob")
        let iv = try iv(transportKey: transportKey, challenge: challenge, nonce: nonce)
        do {
            return try AES._CBC.encrypt(blob, using: transportKey, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        } catch {
            throw .decryptionFailed
        }
    }
}
