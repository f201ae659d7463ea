import Crypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636), `S256` only.
public enum PKCE {
    /// The only method Keyway accepts.
    public static let method = "S256"

    /// The characters RFC 7636 §4.1 allows in a verifier: `[A-Z] [a-z] [0-9] - . _ ~`.
    public static let verifierAlphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// Derives the `S256` challenge: `BASE64URL(SHA256(ASCII(verifier)))`.
    ///
    /// - Parameter verifier: The code verifier.
    /// - Returns: The challenge, 43 base64url characters.
    public static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }

    /// Whether `verifier` is syntactically valid: 43 to 128 characters of the allowed alphabet.
    ///
    /// - Parameter verifier: The code verifier to check.
    /// - Returns: `true` when it is valid.
    public static func isValidVerifier(_ verifier: String) -> Bool {
        let bytes = Array(verifier.utf8)
        return (43...128).contains(bytes.count) && bytes.allSatisfy(verifierAlphabet.contains)
    }

    /// Whether `challenge` has the shape of an `S256` challenge: 43 base64url characters.
    ///
    /// - Parameter challenge: The code challenge to check.
    /// - Returns: `true` when it decodes to 32 bytes from 43 characters.
    public static func isValidS256Challenge(_ challenge: String) -> Bool {
        challenge.utf8.count == 43 && Base64URL.decode(challenge)?.count == 32
    }

    /// Whether `verifier` matches `challenge`, compared in constant time.
    ///
    /// - Parameters:
    ///   - verifier: The code verifier the client sent with the authorization code.
    ///   - challenge: The `S256` challenge it sent when the flow started.
    /// - Returns: `true` when the verifier is valid and its challenge is `challenge`.
    public static func verify(verifier: String, challenge: String) -> Bool {
        guard isValidVerifier(verifier) else { return false }
        return ConstantTime.equals(Self.challenge(for: verifier), challenge)
    }

    /// A verifier of 32 random octets, base64url encoded to 43 characters (RFC 7636 §4.1).
    ///
    /// - Parameter generator: The source of the random octets; use a cryptographically secure one.
    /// - Returns: The verifier.
    public static func makeVerifier<R: RandomNumberGenerator>(using generator: inout R) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in bytes.indices {
            bytes[index] = UInt8.random(in: .min ... .max, using: &generator)
        }
        return Base64URL.encode(bytes)
    }
}
