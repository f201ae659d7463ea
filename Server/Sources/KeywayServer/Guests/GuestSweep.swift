import Foundation

/// Deletes the guests never upgraded that are older than their application's `guests.maxAge`,
/// each with its sessions, tokens and what is attached (``UserRepository/deleteGuest(id:)``).
/// Part of the maintenance sweep.
enum GuestSweep {
    /// Guests deleted per application and sweep at most; the next sweep goes on.
    static let batch = 500

    /// Sweeps once at `now` (milliseconds since 1970); returns how many guests were deleted.
    @discardableResult
    static func run(now: Int64, in repositories: Repositories) async throws -> Int {
        var deleted = 0
        for application in try await repositories.applications.all() {
            // The age applies whether or not the application still makes guests.
            let maxAge = try await repositories.policies.storedPolicy(applicationId: application.id)?.guests.maxAge
                ?? GuestSettings.defaultMaxAge
            let cutoff = now - Int64(maxAge) * 1000
            for id in try await repositories.users.staleGuests(
                applicationId: application.id, createdBefore: cutoff, limit: batch)
            where try await repositories.users.deleteGuest(id: id) {
                deleted += 1
            }
        }
        return deleted
    }
}
