import Foundation
import Logging
import Testing

@testable import KeywayServer

/// `keyway_database_round_trips_total`: each statement a request sends to PostgreSQL counts, with
/// the transaction's `BEGIN` and `COMMIT` (or `ROLLBACK`); outside a request nothing counts.
@Suite("PostgreSQL round trips", .enabled(if: PostgresTestServer.location != nil))
struct RoundTripTallyTests {
    @Test func statementsBeginAndCommitCountInTheRequestsTally() async throws {
        let database = try await PostgreSQLDatabase.open(
            try await PostgreSQLStorageTests.freshLocation(), poolSize: 2, leaseTimeout: .seconds(60),
            logger: PostgreSQLStorageTests.logger)
        try await Migrations.apply(to: database, now: Date())

        let read = RoundTripTally()
        try await RoundTripTally.$current.withValue(read) {
            _ = try await database.read { try await $0.users.find(id: "usr_none") }
        }
        #expect(read.total == 1)

        let write = RoundTripTally()
        try await RoundTripTally.$current.withValue(write) {
            try await database.write { repositories in
                _ = try await repositories.users.find(id: "usr_none")
                _ = try await repositories.sessions.find(id: "ses_none")
            }
        }
        #expect(write.total == 4)  // BEGIN, two statements, COMMIT

        struct Refused: Error {}
        let failed = RoundTripTally()
        await #expect(throws: Refused.self) {
            try await RoundTripTally.$current.withValue(failed) {
                try await database.write { repositories in
                    _ = try await repositories.users.find(id: "usr_none")
                    throw Refused()
                }
            }
        }
        #expect(failed.total == 3)  // BEGIN, the statement, ROLLBACK

        // Without a tally (the maintenance sweep, start-up) the statements run uncounted.
        _ = try await database.read { try await $0.users.find(id: "usr_none") }
        #expect(read.total == 1)
        await database.shutdown()
    }
}
