import Crypto
import Foundation
import KeywayJOSE

/// Secrets of `client_secret_jwt` clients must be known to the server to check their HS256
/// assertions, yet are not stored: each is `kcs_` + base64url(HMAC-SHA-256(key, "client-secret" ‖
/// client ID ‖ salt)), recomputed from the stored salt when needed.
struct ClientSecretDerivation: Sendable {
    let key: SymmetricKey

    func secret(configId: String, salt: String) -> String {
        let input = Data("client-secret\u{0}\(configId)\u{0}\(salt)".utf8)
        return "kcs_\(Base64URL.encode(Array(HMAC<SHA256>.authenticationCode(for: input, using: key))))"
    }
}
