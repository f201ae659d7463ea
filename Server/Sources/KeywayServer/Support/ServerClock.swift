import Foundation

/// The server's source of the current time. Injectable so tests can move time forward.
public protocol ServerClock: Sendable {
    /// The current moment.
    func now() -> Date
}

/// The system clock.
public struct SystemClock: ServerClock {
    public init() {}
    public func now() -> Date { Date() }
}

extension Date {
    /// Milliseconds since 1970, the storage representation of every timestamp.
    var epochMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    /// The date of a stored timestamp.
    init(epochMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(epochMilliseconds) / 1000)
    }
}
