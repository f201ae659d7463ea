import Crypto
import Foundation
import KeywayJOSE

/// Encrypts profile fields on the device, so the server stores them as opaque ciphertext it
/// cannot read: a compact JWE (RFC 7516) with `alg: dir` and `enc: A256GCM`, under a 256-bit key
/// the app keeps (for example in its secure storage).
public struct ProfileCipher: Sendable {
    private let key: SymmetricKey

    /// A cipher under `key`.
    ///
    /// - Parameter key: The user's profile key; it must be 256 bits.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` for a key of another size.
    public init(key: SymmetricKey) throws {
        guard key.bitCount == 256 else {
            throw KeywayError.invalidConfiguration("A profile encryption key must be 256 bits.")
        }
        self.key = key
    }

    private static let protectedHeader = Base64URL.encode(Array(#"{"alg":"dir","enc":"A256GCM"}"#.utf8))

    /// `header..iv.ciphertext.tag`; the header is the additional authenticated data (RFC 7516 §5.1).
    ///
    /// - Parameter plaintext: The field's value.
    /// - Returns: The compact JWE, with a fresh random IV.
    /// - Throws: The error of AES-GCM when it cannot seal (not expected with a 256-bit key).
    public func seal(_ plaintext: String) throws -> String {
        let box = try AES.GCM.seal(Data(plaintext.utf8), using: key, authenticating: Data(Self.protectedHeader.utf8))
        return [
            Self.protectedHeader, "", Base64URL.encode(Array(box.nonce)), Base64URL.encode(box.ciphertext),
            Base64URL.encode(box.tag),
        ].joined(separator: ".")
    }

    /// The plaintext of a value made by ``seal(_:)`` with the same key.
    ///
    /// - Parameter jwe: A compact JWE with `alg: dir` and `enc: A256GCM`.
    /// - Returns: The plaintext.
    /// - Throws: ``KeywayError/invalidResponse(_:)`` when `jwe` is not such a JWE, or does not open
    ///   with this key (another key, or altered ciphertext).
    public func open(_ jwe: String) throws -> String {
        let parts = jwe.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[1].isEmpty, let headerData = Base64URL.decode(parts[0]),
            let header = try? JSONDecoder().decode([String: String].self, from: headerData),
            header["alg"] == "dir", header["enc"] == "A256GCM",
            let iv = Base64URL.decode(parts[2]), let ciphertext = Base64URL.decode(parts[3]),
            let tag = Base64URL.decode(parts[4]), tag.count == 16
        else { throw KeywayError.invalidResponse("The value is not a dir/A256GCM compact JWE.") }
        do {
            let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: ciphertext, tag: tag)
            let plaintext = try AES.GCM.open(box, using: key, authenticating: Data(parts[0].utf8))
            return String(decoding: plaintext, as: UTF8.self)
        } catch {
            throw KeywayError.invalidResponse("The value cannot be decrypted with this key.")
        }
    }
}
