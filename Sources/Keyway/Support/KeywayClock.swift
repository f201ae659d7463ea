import Foundation

/// The SDK's source of time. Injectable so tests can control cooldowns and expiry.
public protocol KeywayClock: Sendable {
    /// The current moment.
    func now() -> Date
}

/// The system clock.
public struct SystemKeywayClock: KeywayClock {
    public init() {}
    public func now() -> Date { Date() }
}
