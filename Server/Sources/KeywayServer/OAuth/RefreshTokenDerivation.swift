import Crypto
import Foundation
import KeywayJOSE

/// Rotated refresh tokens are derived, not drawn: the successor of token `t` is
/// `krt_` + base64url(HMAC-SHA-256(key, t)). The server stores only hashes, yet when a client
/// presents a just-rotated token again inside the grace period it can hand back the very same
/// successor. Without the key nobody can compute a successor; the first token of a family is
/// 256 random bits.
struct RefreshTokenDerivation: Sendable {
    let key: SymmetricKey

    /// A family's first token.
    static func root() -> String { SecureRandom.token(prefix: "krt") }

    /// The token that replaces `token` when it is rotated.
    func successor(of token: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: key)
        return "krt_\(Base64URL.encode(Array(mac)))"
    }
}
