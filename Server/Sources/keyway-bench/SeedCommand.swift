import ArgumentParser
import Foundation
import KeywayServer

/// `keyway-bench seed`: fills a migrated database with signed-in users for the scale measure.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Writes synthetic signed-in users (a user, a session and a refresh token each) into a database.",
        discussion: "Start the server on the database once first (it migrates and makes the dev application), and stop it while SQLite is seeded.")

    @Option(help: "The database URL, as keyway-server's --database (sqlite:PATH or postgres://…).")
    var database: String

    @Option(help: "The application the sessions belong to.")
    var configId: String

    @Option(help: "Users to write.")
    var users = 1_000_000

    @Option(help: "Users per write transaction.")
    var batch = 1_000

    @Option(help: "Write transactions at a time (PostgreSQL connections).")
    var concurrency = 4

    func run() async throws {
        let step = max(users / 10, 1)
        let outcome = try await ScaleSeed.seed(
            database: try DatabaseLocation(parsing: database), configId: configId, users: users, batchSize: batch, concurrency: concurrency
        ) { written in
            if written % step < batch || written == users { progress("seed: \(written) users written") }
        }
        let seconds = Double(outcome.duration.components.seconds) + Double(outcome.duration.components.attoseconds) / 1e18
        progress(String(format: "seed: %d users in %.1f s (%.0f users/s)", outcome.users, seconds, Double(outcome.users) / seconds))
        print(String(format: "%.1f", seconds))
    }
}
