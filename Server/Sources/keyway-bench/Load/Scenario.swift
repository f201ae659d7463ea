/// A unit of work a virtual user repeats.
protocol Scenario: Sendable {
    /// The name in the report.
    var name: String { get }
    /// Runs one iteration on `connection`. Returns `false` when the user has no work left (a
    /// prepared pool ran dry); throws when the server's answer was wrong.
    func iteration(on connection: BenchConnection, user: Int, index: Int) async throws -> Bool
}
