import Foundation
import Logging

/// Fills a database with synthetic signed-in users for scale measurements (`keyway-bench seed`):
/// for each user, the user, one session of an application and that session's first refresh
/// token, written through the repositories a sign-in and a code redemption use (their many-row
/// inserts), so that the rows and the index entries are the server's own. Each user's email,
/// session, token and code hash are random, as real ones are, so the indexes keyed by them grow
/// as they do in service.
///
/// Users are written in transactions of `batchSize` users (at most 2,000: one statement per
/// table), `concurrency` transactions at a time (PostgreSQL runs them on separate connections;
/// SQLite commits them one after another).
package enum ScaleSeed {
    /// What a seeding wrote.
    package struct Outcome: Sendable {
        /// Users written (each with one session and one refresh token).
        package let users: Int
        /// How long it took.
        package let duration: Duration
    }

    /// Writes `users` users, with one session and one live refresh token each, for the
    /// application `configId` of a database the server has already migrated.
    ///
    /// - Parameter progress: Told the number of users written so far, after each transaction.
    package static func seed(
        database location: DatabaseLocation, configId: String, users: Int, batchSize: Int = 1_000, concurrency: Int = 4,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws -> Outcome {
        guard (1...2_000).contains(batchSize) else { throw ConfigurationError("A batch holds 1 to 2,000 users.") }
        let logger = Logger(label: "keyway.seed") { _ in SwiftLogNoOpLogHandler() }
        let database = try await location.open(poolSize: max(1, concurrency), queryTimeout: .seconds(600), logger: logger)
        do {
            guard let application = try await database.read({ try await $0.applications.find(configId: configId) }) else {
                throw ConfigurationError("No application has the configuration ID \(configId): start the server on this database first.")
            }
            let clock = ContinuousClock()
            let started = clock.now
            let batches = stride(from: 0, to: users, by: batchSize).map { $0..<min(users, $0 + batchSize) }
            let written = Locked(0)
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = batches.makeIterator()
                func add() {
                    guard let range = next.next() else { return }
                    group.addTask {
                        try await database.write { repositories in
                            try await insertUsers(range.count, of: application, in: repositories)
                        }
                        progress(written.withLock { $0 += range.count; return $0 })
                    }
                }
                for _ in 0..<max(1, concurrency) { add() }
                while try await group.next() != nil { add() }
            }
            await database.shutdown()
            return Outcome(users: users, duration: started.duration(to: clock.now))
        } catch {
            await database.shutdown()
            throw error
        }
    }

    /// The rows of `count` signed-in users: each user, a session, and the session's first refresh
    /// token issued from a (spent) authorization code.
    private static func insertUsers(
        _ count: Int, of application: ApplicationRecord, in repositories: Repositories
    ) async throws {
        let now = Date().epochMilliseconds
        let policy = application.refreshTokens ?? RefreshTokenPolicy()
        var users: [UserRecord] = []
        var sessions: [SessionRecord] = []
        var tokens: [RefreshTokenRecord] = []
        for _ in 0..<count {
            let user = UserRecord(
                id: SecureRandom.identifier(prefix: "usr"), projectId: application.projectId,
                email: "seed-\(SecureRandom.identifier(prefix: "u").dropFirst(2).lowercased())@scale.example",
                emailVerified: true, createdAt: now)
            let session = SessionRecord(
                id: SecureRandom.identifier(prefix: "ses"), userId: user.id, applicationId: application.id, amr: ["otp"],
                authTime: now, createdAt: now, revokedAt: nil,
                clientAddressHash: sha256Hex(SecureRandom.identifier(prefix: "ip")))
            tokens.append(
                RefreshTokenFamily(policy: policy, now: now).record(
                    scope: "openid email offline_access", applicationId: application.id, userId: user.id,
                    sessionId: session.id, authorizationCodeHash: sha256Hex(SecureRandom.token(prefix: "kac")),
                    binding: nil))
            users.append(user)
            sessions.append(session)
        }
        try await repositories.users.insert(users)
        try await repositories.sessions.insert(sessions)
        try await repositories.refreshTokens.insert(tokens)
    }
}
