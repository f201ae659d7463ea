import Foundation

/// The SDK's source of time. Injectable so tests can control cooldowns and expiry.
public protocol KeywayClock: Sendable {
    /// The current moment.
    ///
    /// - Returns: The current date.
    func now() -> Date
}

/// The system clock.
public struct SystemKeywayClock: KeywayClock {
    /// The system clock.
    public init() {}
    /// The current moment, from the system.
    ///
    /// - Returns: `Date()`.
    public func now() -> Date { Date() }
}
