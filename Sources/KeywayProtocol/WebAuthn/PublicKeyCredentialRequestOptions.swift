import Foundation

/// The options of a passkey sign-in, in the JSON form of WebAuthn Level 3
/// (`PublicKeyCredentialRequestOptionsJSON`; `PublicKeyCredential.parseRequestOptionsFromJSON`
/// in a browser). Binary members are base64url without padding.
public struct PublicKeyCredentialRequestOptions: Codable, Sendable, Equatable {
    /// The challenge, base64url: single use, bound to the flow.
    public var challenge: String
    /// Milliseconds the ceremony may take.
    public var timeout: Int?
    /// The relying-party ID.
    public var rpID: String
    /// The credentials that may answer; empty for a discoverable passkey, which names its account.
    public var allowCredentials: [PublicKeyCredentialDescriptor]
    /// `required`, `preferred` or `discouraged`.
    public var userVerification: String

    /// Creates sign-in options with the given values.
    ///
    /// - Parameters:
    ///   - challenge: The challenge, base64url.
    ///   - timeout: Milliseconds the ceremony may take.
    ///   - rpID: The relying-party ID.
    ///   - allowCredentials: The credentials that may answer; empty for any passkey of the relying party.
    ///   - userVerification: `required`, `preferred` or `discouraged`.
    public init(
        challenge: String, timeout: Int? = nil, rpID: String, allowCredentials: [PublicKeyCredentialDescriptor] = [],
        userVerification: String
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpID = rpID
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }

    private enum CodingKeys: String, CodingKey {
        case challenge, timeout, rpID = "rpId", allowCredentials, userVerification
    }
}
