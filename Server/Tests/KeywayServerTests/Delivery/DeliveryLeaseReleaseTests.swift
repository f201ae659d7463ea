import Foundation
import KeywayProtocol
import KeywayTestSupport
import Logging
import Testing

@testable import KeywayServer

/// A database that lets `allowedWrites` more write transactions through and refuses the ones
/// after (`nil`: every one passes): an outcome the worker cannot record.
struct FlakyWritesDatabase: Database {
    let inner: any Database
    let allowedWrites: Locked<Int?>
    struct Refused: Error {}

    func read<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        try await inner.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        let pass = allowedWrites.withLock { allowed -> Bool in
            guard let left = allowed else { return true }
            allowed = left - 1
            return left > 0
        }
        guard pass else { throw Refused() }
        return try await inner.write(body)
    }

    func shutdown() async { await inner.shutdown() }

    func exclusively<T: Sendable>(_ lock: ExclusiveLock, _ body: () async throws -> T) async throws -> T {
        try await inner.exclusively(lock, body)
    }
}

struct AlwaysDelivered: DeliveryProvider {
    func deliver(_ message: DeliveryMessage) async -> DeliveryOutcome { .delivered }
}

@Suite("Delivery leases at shutdown")
struct DeliveryLeaseReleaseTests {
    @Test func aMessageWithoutARecordedOutcomeIsHandedBackAtOnce() async throws {
        let path = TestFiles.directory.appendingPathComponent("keyway-lease-\(UUID().uuidString)/db.sqlite").path
        let sqlite = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        try await Migrations.apply(to: sqlite, now: Date())
        let allowed = Locked<Int?>(nil)
        let database = FlakyWritesDatabase(inner: sqlite, allowedWrites: allowed)
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let worker = DeliveryWorker(
            database: database, clock: clock, routing: .always(AlwaysDelivered()), lease: 600, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let id = try await sqlite.write { repositories in
            try await repositories.deliveryOutbox.enqueue(
                DeliveryRequest(
                    projectId: "prj_1", flowId: "flw_1", channel: .email, recipient: "ada@example.com",
                    subject: "Code", body: Sensitive("Your code is 123456."), code: Sensitive("123456"),
                    idempotencyKey: "k-1"),
                now: clock.now().epochMilliseconds)
        }
        // The claim commits; recording the outcome does not.
        allowed.withLock { $0 = 1 }
        #expect(try await worker.deliverDue() == 1)
        allowed.withLock { $0 = nil }
        let held = try #require(try await sqlite.read { try await $0.deliveryOutbox.status(id: id) })
        #expect(held.state == .sending)
        #expect(try await sqlite.read { try await $0.deliveryOutbox.hasDue(now: clock.now().epochMilliseconds) } == false)

        // At shutdown the worker hands it back: due now, for any worker.
        await worker.releaseLeases()
        #expect(try await sqlite.read { try await $0.deliveryOutbox.hasDue(now: clock.now().epochMilliseconds) })
        #expect(try await worker.deliverDue() == 1)
        #expect(try await sqlite.read { try await $0.deliveryOutbox.status(id: id) }?.state == .delivered)
        await sqlite.shutdown()
    }
}
