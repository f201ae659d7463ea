import Foundation
import Logging
import ServiceLifecycle

/// Deletes flows, authorization codes, refresh token families and approval requests a day after
/// they expired, once a minute; delivered outbox messages a day after delivery and dead letters
/// after a week; trusted devices 30 days after they were revoked or their trust ended; guests
/// never upgraded once older than their application's `guests.maxAge` (``GuestSweep``).
struct MaintenanceService: Service {
    let database: any Database
    let clock: any ServerClock
    let logger: Logger
    var interval: Duration = .seconds(60)
    var retention: TimeInterval = 24 * 60 * 60

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await sweep()
                } catch {
                    logger.warning("maintenance sweep failed: \(String(describing: type(of: error)))")
                }
                try? await Task.sleep(for: interval)
            }
        }
    }

    func sweep() async throws {
        let cutoff = clock.now().addingTimeInterval(-retention).epochMilliseconds
        // With several instances on one database, one sweeps at a time.
        let started = ContinuousClock.now
        try await database.exclusively(.maintenance) { try await sweepOnce(cutoff: cutoff) }
        SlowStage.report("maintenance sweep", since: started, logger: logger)
    }

    private func sweepOnce(cutoff: Int64) async throws {
        try await database.write { repositories in
            try await repositories.flows.deleteExpired(before: cutoff)
            try await repositories.authorizationCodes.deleteExpired(before: cutoff)
            try await repositories.refreshTokens.deleteExpired(before: cutoff)
            try await repositories.revokedAccessTokens.deleteExpired(before: cutoff)
            try await repositories.startTokens.deleteExpired(before: cutoff)
            try await repositories.approvals.deleteExpired(before: cutoff)
            try await repositories.signInLinks.deleteExpired(before: cutoff)
            try await repositories.browserSessions.deleteExpired(before: cutoff)
            try await repositories.federatedIdentities.sweepStates(before: cutoff)
            try await repositories.trustedDevices.deleteEnded(
                before: clock.now().addingTimeInterval(-30 * 86_400).epochMilliseconds)
            // What anyone can make the server keep goes at expiry: nothing reads it after.
            try await repositories.browserFlows.deleteExpired(before: clock.now().epochMilliseconds)
            try await repositories.pushedRequests.deleteExpired(before: clock.now().epochMilliseconds)
            try await repositories.dpopProofs.deleteExpired(before: clock.now().epochMilliseconds)
            try await repositories.clientAssertions.deleteExpired(before: clock.now().epochMilliseconds)
            try await repositories.deviceRequestSignatures.deleteExpired(before: clock.now().epochMilliseconds)
            try await repositories.appAttest.deleteExpiredChallenges(before: clock.now().epochMilliseconds)
            try await repositories.powerAuthTemporaryKeys.deleteExpired(before: clock.now().epochMilliseconds)
            try await repositories.powerAuthReplays.deleteExpired(before: clock.now().epochMilliseconds)
            try await repositories.powerAuthActivations.deleteExpiredCodes(before: cutoff)
            // Rate limit windows are at most a day long in any sane setting.
            try await repositories.rateLimits.deleteExpired(
                before: min(cutoff, clock.now().addingTimeInterval(-2 * 86_400).epochMilliseconds))
            // Delivered messages are kept a day, dead letters a week (to be inspected and retried).
            try await repositories.deliveryOutbox.deleteSettled(
                deliveredBefore: cutoff, deadBefore: clock.now().addingTimeInterval(-7 * 86_400).epochMilliseconds)
        }
        // In a transaction of its own: many deletions, and a failure here keeps the rest swept.
        let guests = try await database.write { try await GuestSweep.run(now: clock.now().epochMilliseconds, in: $0) }
        if guests > 0 { logger.info("stale guests deleted", metadata: ["count": "\(guests)"]) }
    }
}
