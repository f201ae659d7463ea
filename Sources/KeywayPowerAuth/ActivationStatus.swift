import Crypto
import CryptoExtras
import Foundation

/// The state of an activation, as the status blob carries it.
public enum ActivationState: Sendable, Hashable {
    /// `0x01`: created, waiting for the key exchange.
    case created
    /// `0x02`: keys exchanged, waiting for the commit.
    case pendingCommit
    /// `0x03`: active.
    case active
    /// `0x04`: blocked.
    case blocked
    /// `0x05`: removed.
    case removed
    /// A value this library does not know.
    case unknown(UInt8)

    /// The state of a status byte.
    ///
    /// - Parameter byte: The blob's `STATUS` byte.
    public init(byte: UInt8) {
        switch byte {
        case 1: self = .created
        case 2: self = .pendingCommit
        case 3: self = .active
        case 4: self = .blocked
        case 5: self = .removed
        default: self = .unknown(byte)
        }
    }

    /// The state's status byte.
    public var byte: UInt8 {
        switch self {
        case .created: 1
        case .pendingCommit: 2
        case .active: 3
        case .blocked: 4
        case .removed: 5
        case let .unknown(byte): byte
        }
    }
}

/// A decoded 32-byte activation status blob (format `0xDEC0DED1`).
public struct ActivationStatusBlob: Sendable, Hashable {
    /// The blob's magic prefix.
    public static let magic: [UInt8] = [0xDE, 0xC0, 0xDE, 0xD1]

    /// The activation's state.
    public let state: ActivationState
    /// The activation's current protocol major version (2 or 3).
    public let currentVersion: UInt8
    /// The highest protocol major version the server supports.
    public let upgradeVersion: UInt8
    /// The least significant byte of the server's counter `CTR`.
    public let counterByte: UInt8
    /// Failed attempts in a row.
    public let failedAttempts: UInt8
    /// Failed attempts in a row that block the activation.
    public let maxFailedAttempts: UInt8
    /// The server's look-ahead window `CTR_LOOK_AHEAD`.
    public let counterLookAhead: UInt8
    /// `KDF_INTERNAL(KDF(KEY_TRANSPORT, 4000), CTR_DATA)` of the server's counter.
    public let counterDataHash: Data

    /// Decodes a decrypted status blob.
    ///
    /// - Parameter blob: The 32 decrypted bytes.
    /// - Throws: `PowerAuthError.invalidLength` when it is not 32 bytes, `.invalidStatusBlob` when the
    ///   magic prefix is missing.
    public init<D: DataProtocol>(decoding blob: D) throws(PowerAuthError) {
        let bytes = Array(blob)
        try Bytes.require(bytes, count: 32, field: "status blob")
        guard Array(bytes[0..<4]) == Self.magic else { throw .invalidStatusBlob }
        state = ActivationState(byte: bytes[4])
        currentVersion = bytes[5]
        upgradeVersion = bytes[6]
        counterByte = bytes[12]
        failedAttempts = bytes[13]
        maxFailedAttempts = bytes[14]
        counterLookAhead = bytes[15]
        counterDataHash = Data(bytes[16..<32])
    }

    /// Decrypts and decodes a status blob sent by the server.
    ///
    /// - Parameters:
    ///   - encrypted: The encrypted blob (32 bytes).
    ///   - transportKey: `KEY_TRANSPORT`.
    ///   - challenge: The client's `STATUS_CHALLENGE` (16 bytes).
    ///   - nonce: The server's `STATUS_NONCE` (16 bytes).
    /// - Throws: `PowerAuthError.invalidLength` for bad sizes, `.decryptionFailed`, or the decoding
    ///   errors of ``init(decoding:)``.
    public init(decrypting encrypted: Data, transportKey: SymmetricKey, challenge: Data, nonce: Data) throws(PowerAuthError) {
        try Bytes.require(encrypted, count: 32, field: "encrypted status blob")
        let iv = try Self.iv(transportKey: transportKey, challenge: challenge, nonce: nonce)
        let plain: Data
        do {
            plain = try AES._CBC.decrypt(encrypted, using: transportKey, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        } catch {
            throw .decryptionFailed
        }
        try self.init(decoding: plain)
    }

    /// `STATUS_IV = KDF_INTERNAL(KDF(KEY_TRANSPORT, 3000), STATUS_CHALLENGE ‖ STATUS_NONCE)`.
    ///
    /// - Parameters:
    ///   - transportKey: `KEY_TRANSPORT`.
    ///   - challenge: `STATUS_CHALLENGE` (16 bytes).
    ///   - nonce: `STATUS_NONCE` (16 bytes).
    /// - Returns: The 16-byte IV.
    /// - Throws: `PowerAuthError.invalidLength` for bad sizes.
    public static func iv(transportKey: SymmetricKey, challenge: Data, nonce: Data) throws(PowerAuthError) -> Data {
        try Bytes.require(challenge, count: 16, field: "status challenge")
        try Bytes.require(nonce, count: 16, field: "status nonce")
        let ivKey = try PowerAuthKDF.derive(key: transportKey, index: PowerAuthKeyIndex.transportIV)
        return PowerAuthKDF.deriveInternal(key: ivKey, data: challenge + nonce).data
    }

    /// The hash a status blob carries of a counter value.
    ///
    /// - Parameters:
    ///   - counterData: A `CTR_DATA` value (16 bytes).
    ///   - transportKey: `KEY_TRANSPORT`.
    /// - Returns: `KDF_INTERNAL(KDF(KEY_TRANSPORT, 4000), CTR_DATA)`.
    /// - Throws: `PowerAuthError.invalidLength` for bad sizes.
    public static func counterDataHash(_ counterData: Data, transportKey: SymmetricKey) throws(PowerAuthError) -> Data {
        try Bytes.require(counterData, count: 16, field: "counter data")
        let key = try PowerAuthKDF.derive(key: transportKey, index: PowerAuthKeyIndex.transportCounter)
        return PowerAuthKDF.deriveInternal(key: key, data: counterData).data
    }

    /// How many steps of the hash counter lead from `counterData` to the server's counter.
    ///
    /// - Parameters:
    ///   - counterData: A counter value behind or equal to the server's.
    ///   - transportKey: `KEY_TRANSPORT`.
    ///   - maxDistance: How many steps to try; the blob's look-ahead window when `nil`.
    /// - Returns: The number of steps (0 when in step), or `nil` when none within the limit matches.
    /// - Throws: `PowerAuthError.invalidLength` for bad sizes.
    public func counterDistance(from counterData: Data, transportKey: SymmetricKey, maxDistance: Int? = nil) throws(PowerAuthError) -> Int? {
        let limit = max(maxDistance ?? Int(counterLookAhead), 1)
        var current = counterData
        for distance in 0..<limit {
            let hash = try Self.counterDataHash(current, transportKey: transportKey)
            if ConstantTimeBytes.equals(Array(hash), Array(counterDataHash)) { return distance }
            current = PowerAuthHashCounter.next(current)
        }
        return nil
    }
}
