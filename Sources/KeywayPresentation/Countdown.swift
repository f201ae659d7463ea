import Foundation
import KeywayProtocol

/// A moment a screen counts down to.
public struct Countdown: Sendable, Equatable {
    /// What happens when it ends.
    public enum Purpose: String, Sendable, Equatable {
        /// A new code may be asked for.
        case resendAvailable
        /// The current code stops working.
        case codeExpires
        /// The approval request expires.
        case approvalExpires
        /// Try again (after `wait`).
        case retryAvailable
    }

    /// What happens when it ends.
    public var purpose: Purpose
    /// When it ends.
    public var date: Date

    /// A countdown to `date`, for `purpose`.
    ///
    /// - Parameters:
    ///   - purpose: What happens when it ends.
    ///   - date: When it ends.
    public init(_ purpose: Purpose, _ date: Date) {
        self.purpose = purpose
        self.date = date
    }
}
