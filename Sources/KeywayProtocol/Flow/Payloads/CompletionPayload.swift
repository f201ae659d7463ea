import Foundation

/// Payload of a `completed` step.
public struct CompletedPayload: Codable, Sendable, Equatable {
    /// The authorization code to redeem at the token endpoint, once, within its lifetime.
    public var authCode: Sensitive<String>
    /// When the authorization code expires.
    public var expiresAt: Date
    /// The session the flow created; tokens carry it as `sid`.
    public var session: String
    /// Whether this flow created the user (a first sign-in) rather than finding an existing one.
    public var newUser: Bool?
    /// The trusted device this flow enrolled, when it enrolled one: the client keeps its key
    /// under this ID.
    public var trustedDeviceID: String?
    /// The `state` the flow was started with, unchanged.
    public var state: String?
    /// Set when a guest signed in to an existing account instead of upgrading: the app's backend
    /// merges the guest's data into that account.
    public var guestMerged: GuestMerge?

    /// Creates a completion payload with the given values.
    ///
    /// - Parameters:
    ///   - authCode: The authorization code to redeem.
    ///   - expiresAt: When the authorization code expires.
    ///   - session: The session the flow created.
    ///   - newUser: Whether this flow created the user, when the server says.
    ///   - trustedDeviceID: The trusted device this flow enrolled, if any.
    ///   - state: The `state` the flow was started with.
    ///   - guestMerged: The guest who signed in to this account instead of upgrading, if any.
    public init(
        authCode: Sensitive<String>, expiresAt: Date, session: String, newUser: Bool? = nil,
        trustedDeviceID: String? = nil, state: String? = nil, guestMerged: GuestMerge? = nil
    ) {
        self.guestMerged = guestMerged
        self.state = state
        self.trustedDeviceID = trustedDeviceID
        self.authCode = authCode
        self.expiresAt = expiresAt
        self.session = session
        self.newUser = newUser
    }

    private enum CodingKeys: String, CodingKey {
        case authCode, expiresAt, session, newUser, trustedDeviceID = "trustedDeviceId", state, guestMerged
    }
}
