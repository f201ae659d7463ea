import Foundation

/// The activations ``KeywayBackend`` read lately, kept a few seconds so that a burst of device
/// signatures of one activation costs one request; a status change (a blocked or removed
/// activation) is seen when the entry expires.
actor ActivationCache {
    private var entries: [String: (info: PowerAuthActivationInfo, fetchedAt: Date)] = [:]
    private let maximumEntries = 10_000

    func get(_ activationId: String, now: Date, lifetime: TimeInterval) -> PowerAuthActivationInfo? {
        guard let entry = entries[activationId] else { return nil }
        guard now.timeIntervalSince(entry.fetchedAt) < lifetime, now >= entry.fetchedAt else {
            entries[activationId] = nil
            return nil
        }
        return entry.info
    }

    func put(_ info: PowerAuthActivationInfo, now: Date, lifetime: TimeInterval) {
        if entries.count >= maximumEntries {
            entries = entries.filter { now.timeIntervalSince($0.value.fetchedAt) < lifetime }
            if entries.count >= maximumEntries { entries.removeAll() }
        }
        entries[info.activationId] = (info, now)
    }

    func forget(_ activationId: String) {
        entries[activationId] = nil
    }
}
