import Foundation

/// Payload of an `accountExists` step: a guest's sign-up (an upgrade) proved an identifier that
/// already belongs to an account. Its actions let the app choose: `signInInstead` continues as a
/// sign-in to that account (the guest's data is handed to the app's backend with the
/// `guest.merged` event), `stayGuest` ends the flow and the guest session stays as it was.
public struct AccountExistsPayload: Codable, Sendable, Equatable {
    /// The identifier of the existing account, masked (`a•••@example.com`).
    public var identifierHint: String

    /// Creates the payload.
    ///
    /// - Parameter identifierHint: The identifier of the existing account, masked.
    public init(identifierHint: String) {
        self.identifierHint = identifierHint
    }
}

/// A guest who signed in to an existing account instead of upgrading: the app's backend merges
/// what the guest had into that account. Carried by the completed step
/// (``CompletedPayload/guestMerged``) and by the `guest.merged` event.
public struct GuestMerge: Codable, Sendable, Equatable {
    /// The guest's user ID (`sub` of its tokens).
    public var guestUserID: String
    /// The account the guest signed in to.
    public var userID: String

    /// Creates the value.
    ///
    /// - Parameters:
    ///   - guestUserID: The guest's user ID.
    ///   - userID: The account the guest signed in to.
    public init(guestUserID: String, userID: String) {
        self.guestUserID = guestUserID
        self.userID = userID
    }

    private enum CodingKeys: String, CodingKey {
        case guestUserID = "guestUserId", userID = "userId"
    }
}
