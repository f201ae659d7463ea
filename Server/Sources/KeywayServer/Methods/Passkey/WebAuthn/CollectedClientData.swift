import Foundation
import KeywayJOSE

/// The client data a WebAuthn client collects and the authenticator signs over the hash of
/// (WebAuthn §5.8.1, `clientDataJSON`). Members Keyway does not read are ignored.
struct CollectedClientData: Sendable, Equatable {
    /// `webauthn.create` for a registration, `webauthn.get` for an assertion.
    var type: String
    /// The challenge, decoded from its base64url.
    var challenge: Data
    /// The origin of the caller: `https://host[:port]`, or a platform origin such as
    /// `ios:bundle-id:…` or `android:apk-key-hash:…`.
    var origin: String
    /// Whether the ceremony ran in a frame of another origin than the top-level one.
    var crossOrigin: Bool
    /// The top-level origin, when the ceremony ran in a cross-origin frame.
    var topOrigin: String?

    /// The longest client data read; real ones are a few hundred bytes.
    static let maximumSize = 16 * 1024

    /// The JSON members read.
    private struct Members: Decodable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool?
        var topOrigin: String?
    }

    /// Parses `clientDataJSON`.
    ///
    /// - Parameter json: The client data's JSON bytes.
    /// - Throws: ``WebAuthnFailure/malformed(_:)`` for JSON that is not an object with string
    ///   `type`, `challenge` (base64url) and `origin`, a `crossOrigin` that is not a boolean, or
    ///   input over ``maximumSize`` bytes.
    init(json: Data) throws(WebAuthnFailure) {
        guard json.count <= Self.maximumSize else { throw .malformed("the client data is larger than \(Self.maximumSize) bytes") }
        let members: Members
        do { members = try JSONDecoder().decode(Members.self, from: json) } catch {
            throw .malformed("the client data is not the JSON object WebAuthn defines")
        }
        guard let challenge = Base64URL.decode(members.challenge) else {
            throw .malformed("the client data's challenge is not base64url")
        }
        type = members.type
        self.challenge = challenge
        origin = members.origin
        crossOrigin = members.crossOrigin ?? false
        topOrigin = members.topOrigin
    }
}
