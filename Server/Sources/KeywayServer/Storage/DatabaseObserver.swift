/// What a database tells the server's metrics about its connections: how long each transaction
/// waited for its connection (a PostgreSQL pool connection, SQLite's single writer), how many
/// connections are in use, and which transactions ran again after a conflict.
struct DatabaseObserver: Sendable {
    /// A connection was handed out for `kind` (`read` or `write`) after waiting `waited`.
    var leased: @Sendable (_ kind: String, _ waited: Duration) -> Void = { _, _ in }
    /// A connection handed out for `kind` came back.
    var returned: @Sendable (_ kind: String) -> Void = { _ in }
    /// A transaction refused for a conflict (PostgreSQL serialization failure) runs again.
    var conflictRetried: @Sendable () -> Void = {}

    /// Tells nothing.
    static let none = DatabaseObserver()

    /// Runs `body` on a connection just handed out, reporting how long it was waited for since
    /// `requested` and, when `body` ends, that it came back.
    func leasing<T>(_ kind: String, since requested: ContinuousClock.Instant, _ body: () async throws -> T) async rethrows -> T {
        leased(kind, ContinuousClock.now - requested)
        defer { returned(kind) }
        return try await body()
    }
}
