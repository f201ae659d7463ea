import Crypto
import Foundation

/// The v3 public key fingerprint: eight decimal digits a user compares on the device and in the
/// front-end application before an activation is committed.
public enum PublicKeyFingerprint {
    /// Computes the fingerprint: SHA-256 of the device key's X coordinate, the activation ID's UTF-8
    /// bytes and the server key's X coordinate (each X the minimal big-endian integer); the last
    /// four bytes of the hash as a big-endian integer, its top bit cleared, modulo 10^8, padded to
    /// eight digits.
    ///
    /// - Parameters:
    ///   - devicePublicKey: `KEY_DEVICE_PUBLIC`.
    ///   - activationID: The activation ID.
    ///   - serverPublicKey: `KEY_SERVER_PUBLIC`.
    /// - Returns: Eight decimal digits.
    public static func v3(
        devicePublicKey: P256.KeyAgreement.PublicKey, activationID: String, serverPublicKey: P256.KeyAgreement.PublicKey
    ) -> String {
        var input = PowerAuthKeys.minimalX(of: devicePublicKey)
        input.append(contentsOf: Array(activationID.utf8))
        input.append(PowerAuthKeys.minimalX(of: serverPublicKey))
        return Decimalization.digits(Array(SHA256.hash(data: input)), length: 8)
    }
}

/// Turning a MAC or hash into decimal digits, as fingerprints and decimal signatures do.
enum Decimalization {
    /// The last four bytes as a big-endian integer with the top bit cleared, modulo 10^length,
    /// zero-padded to `length` digits.
    static func digits(_ bytes: [UInt8], length: Int) -> String {
        let value = UInt32(Bytes.readBigEndian(bytes.suffix(4))) & 0x7FFF_FFFF
        var modulus: UInt32 = 1
        for _ in 0..<length { modulus *= 10 }
        let text = String(value % modulus)
        return String(repeating: "0", count: length - text.count) + text
    }
}
