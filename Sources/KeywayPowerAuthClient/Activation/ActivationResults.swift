import Foundation

/// A key exchange that succeeded: show ``fingerprint`` to the user (the server shows the same
/// eight digits) before committing with a password.
public struct PendingActivation: Sendable, Equatable {
    /// The activation's ID.
    public let activationID: String
    /// The eight-digit fingerprint of the exchanged keys.
    public let fingerprint: String
    /// The recovery code and PUK, when the application issues them: show them once, for the user
    /// to keep; the device does not keep them.
    public let recovery: RecoveryData?
}

/// A recovery code and its PUK.
public struct RecoveryData: Sendable, Equatable {
    /// The recovery code.
    public let recoveryCode: String
    /// The ten-digit PUK.
    public let puk: Sensitive<String>
}

/// What the device holds for its application.
public enum LocalActivationState: Sendable, Equatable {
    /// No activation.
    case none
    /// Keys exchanged; the local commit (password) is still to do.
    case pendingCommit(activationID: String, fingerprint: String)
    /// Committed: the device signs.
    case active(activationID: String, fingerprint: String, hasBiometry: Bool)
}

/// How the device's counter compares with the server's, as the status showed.
public enum CounterSynchronization: Sendable, Equatable {
    /// The same counter value.
    case inStep
    /// The server was ahead; the device moved its counter forward by `steps`.
    case resynchronized(steps: Int)
    /// The device is `steps` ahead (signatures that never reached the server); the server
    /// catches up at the next signature while this stays within its look-ahead window.
    case deviceAhead(steps: Int)
    /// The counters are further apart than the look-ahead window: signatures will fail.
    case outOfSync
}

/// The activation's status as the server reports it.
public struct ActivationStatusReport: Sendable, Equatable {
    /// The activation's ID.
    public let activationID: String
    /// Its state on the server.
    public let state: ActivationState
    /// Failed signature verifications in a row.
    public let failedAttempts: Int
    /// Failed verifications in a row that block it.
    public let maxFailedAttempts: Int
    /// What remains before it is blocked.
    public var remainingAttempts: Int { max(maxFailedAttempts - failedAttempts, 0) }
    /// How the counters compare (after any resynchronization).
    public let counter: CounterSynchronization
}

/// An offline signature: the decimal text the user types into the other application.
public struct OfflineSignature: Sendable, Equatable {
    /// The operation data that were signed (show them before signing).
    public let data: String
    /// The signature, one group of eight digits per factor joined by `-`.
    public let signature: String
}
