/// A condition that did not come true in time.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let description: String
}

/// Waits until `condition` holds, checking it every 20 milliseconds, and throws if it still does
/// not after `timeout` (generous by default: a loaded machine is slow, not wrong). Tests wait on
/// the condition itself this way, never by sleeping a fixed time.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(30), isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(description: "Timed out waiting until \(what).") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
