import Foundation

/// Something that happened in the SDK that an app may react to (analytics, UI, audit).
///
/// Events never carry secrets: no codes, tokens, verifiers or identifiers typed by the user.
/// Their ``data`` holds only IDs and descriptive values.
public struct KeywayEvent: Sendable, Equatable {
    /// What happened.
    public enum Name: String, Sendable, CaseIterable {
        /// A flow was started (`flowType`).
        case signInStarted
        /// A flow completed (`flowType`, `flowId`, `session`, `userType`: `new` or `existing`).
        case signInCompleted
        /// A flow ended in failure the user cannot retry (`code`, `action`, `flowType`).
        case signInFailed
        /// The session refreshed its tokens (`account`, `expiresAt`).
        case tokenRefreshed
        /// An account was signed out on this device (`account`, `reason`: `user`).
        case signedOut
        /// The user's profile was saved (`fields`: the changed field names, comma separated).
        case userDataSaved
        /// The server refused the refresh token, so the account was signed out (`account`,
        /// `reason`: the server's explanation).
        case sessionExpired
        /// This device became trusted for the user who signed in (`deviceId`).
        case deviceTrusted
        /// The server no longer trusts this device for the user, so its key was deleted
        /// (`reason`: `notRecognized`); the second factor is asked for, and the device enrols again.
        case deviceForgotten
        /// This trusted device approved or denied a sign-in (`approvalId`, `decision`).
        case approvalDecided
        /// The hardware key store refused to create the device key (the Secure Enclave without the
        /// app's entitlement, for example), so the device enrolled with a software key kept in
        /// the device trust storage (`reason`); the server records it as not hardware-backed.
        case deviceKeyFallback
        /// A guest signed in to an existing account instead of upgrading (`guestUserId`, `userId`):
        /// hand what the guest had to the app's backend, which also receives `guest.merged`.
        case guestMerged
    }

    /// Whether a completed sign-in created the user.
    enum UserType: String, Sendable {
        /// The flow created the user: a first sign-in.
        case new
        /// The flow found a user that existed already.
        case existing
    }

    /// What happened.
    public var name: Name
    /// Descriptive values, never secrets.
    public var data: [String: String]
    /// When the event happened, by the SDK's clock.
    public var date: Date

    /// An event with the given values (the SDK emits them).
    init(name: Name, data: [String: String] = [:], date: Date) {
        self.name = name
        self.data = data
        self.date = date
    }
}

/// Receives every ``KeywayEvent`` synchronously, as it is emitted: the package's tests read the
/// events in order this way. An app reads ``KeywayClient/events``.
package protocol KeywayEventDelegate: AnyObject, Sendable {
    /// Called with each event, right after it happened.
    ///
    /// - Parameters:
    ///   - keyway: The SDK instance that emitted it.
    ///   - event: The event.
    func keyway(_ keyway: KeywayClient, didEmit event: KeywayEvent)
}
