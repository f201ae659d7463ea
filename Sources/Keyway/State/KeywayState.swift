import Foundation
import KeywayProtocol

/// The authentication half of ``KeywayState``.
public struct AuthState: Sendable, Equatable {
    /// Whether an account is signed in on this device (its tokens are stored).
    public var isAuthenticated: Bool
    /// The current account's access token, possibly expired (see ``isAccessTokenValid``). Use
    /// ``KeywaySession/accessToken(account:throwIfMissing:)`` to get one that is refreshed.
    public var accessToken: Sensitive<String>?
    /// Whether ``accessToken`` is present and not yet expired.
    public var isAccessTokenValid: Bool
    /// Whether the signed-in user's email is verified.
    public var isVerifiedUser: Bool
    /// Whether anyone ever signed in with this app on this device (kept after signing out).
    public var hasPreviouslySignedIn: Bool
    /// Whether the state is being loaded from storage or the tokens are being refreshed.
    public var isLoading: Bool
    /// Whether the secure storage could not be read at the last attempt (for example a locked
    /// device). The rest of the state is the last known one; nobody is signed out because of it.
    public var isStorageUnavailable: Bool

    /// An authentication state; every flag not given is `false`.
    ///
    /// - Parameters:
    ///   - isAuthenticated: Whether an account is signed in on this device.
    ///   - accessToken: The current account's access token.
    ///   - isAccessTokenValid: Whether the access token is present and not yet expired.
    ///   - isVerifiedUser: Whether the signed-in user's email is verified.
    ///   - hasPreviouslySignedIn: Whether anyone ever signed in with this app on this device.
    ///   - isLoading: Whether the state is being loaded or the tokens refreshed.
    ///   - isStorageUnavailable: Whether the secure storage could not be read at the last attempt.
    public init(
        isAuthenticated: Bool = false, accessToken: Sensitive<String>? = nil, isAccessTokenValid: Bool = false,
        isVerifiedUser: Bool = false, hasPreviouslySignedIn: Bool = false, isLoading: Bool = false,
        isStorageUnavailable: Bool = false
    ) {
        self.isStorageUnavailable = isStorageUnavailable
        self.isAuthenticated = isAuthenticated
        self.accessToken = accessToken
        self.isAccessTokenValid = isAccessTokenValid
        self.isVerifiedUser = isVerifiedUser
        self.hasPreviouslySignedIn = hasPreviouslySignedIn
        self.isLoading = isLoading
    }
}

/// The user half of ``KeywayState``.
public struct UserState: Sendable, Equatable {
    /// The signed-in user's ID (`sub`), or `nil`.
    public var id: String?
    /// What is known of the user: `email` and `emailVerified` from the ID token, then the profile
    /// fields last read or saved through ``KeywaySession/user`` (numbers and booleans as text).
    public var data: [String: String]

    /// A user state with the given values.
    ///
    /// - Parameters:
    ///   - id: The signed-in user's ID, or `nil`.
    ///   - data: What is known of the user.
    public init(id: String? = nil, data: [String: String] = [:]) {
        self.id = id
        self.data = data
    }
}

/// What an app shows about authentication: who is signed in and whether their token is good.
public struct KeywayState: Sendable, Equatable {
    /// Who is signed in and whether their token is good.
    public var auth: AuthState
    /// Who the signed-in user is.
    public var user: UserState

    /// A state with the given halves.
    ///
    /// - Parameters:
    ///   - auth: The authentication half.
    ///   - user: The user half.
    public init(auth: AuthState = AuthState(), user: UserState = UserState()) {
        self.auth = auth
        self.user = user
    }
}
