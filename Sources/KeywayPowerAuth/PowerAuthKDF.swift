import Crypto
import CryptoExtras
import Foundation

/// The protocol's key derivation functions.
public enum PowerAuthKDF {
    /// `KDF(K, index)`: AES-128 of the 16-byte big-endian index under `K` (one block, no IV), so the
    /// index sits in the block's last eight bytes.
    ///
    /// - Parameters:
    ///   - key: The 16-byte key to derive from.
    ///   - index: The derivation index (1 possession, 2 knowledge, 3 biometry, 1000 transport…).
    /// - Returns: The 16-byte derived key.
    /// - Throws: `PowerAuthError.invalidLength` when the key is not 16 bytes.
    public static func derive(key: SymmetricKey, index: UInt64) throws(PowerAuthError) -> SymmetricKey {
        guard key.bitCount == 128 else {
            throw .invalidLength(field: "KDF key", expected: "16", actual: key.bitCount / 8)
        }
        var block = Bytes.bigEndian(index, width: 16)
        do {
            try AES.permute(&block, key: key)
        } catch {
            throw .invalidLength(field: "KDF key", expected: "16", actual: key.bitCount / 8)
        }
        return SymmetricKey(data: block)
    }

    /// `KDF_INTERNAL(K, data)`: HMAC-SHA256 keyed with `K` over `data`, its two 16-byte halves XORed.
    ///
    /// - Parameters:
    ///   - key: The key (the HMAC key).
    ///   - data: The data (the HMAC message).
    /// - Returns: The 16-byte derived key.
    public static func deriveInternal<D: DataProtocol>(key: SymmetricKey, data: D) -> SymmetricKey {
        let mac = HMAC<SHA256>.authenticationCode(for: data, using: key)
        return SymmetricKey(data: Bytes.fold(Array(mac)))
    }
}
