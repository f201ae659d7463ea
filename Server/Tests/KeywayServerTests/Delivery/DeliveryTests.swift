import Crypto
import Foundation
import KeywayProtocol
import KeywayTestSupport
import Logging
import NIOCore
import Testing

@testable import KeywayServer

/// The outbox, the webhook provider and the worker, against a real SQLite file and a real HTTP
/// receiver on loopback.
@Suite("Delivery outbox and worker")
struct DeliveryTests {
    static let secret = "whsec-test-3f1c9a"
    static let code = "482913"

    /// Everything one test needs: a migrated database, a clock, a receiver, a worker.
    struct Fixture: ScopedTestServer {
        let database: SQLiteDatabase
        let clock: ManualClock
        let receiver: WebhookReceiver
        let worker: DeliveryWorker
        let log: LogCapture
        let retryPolicy: DeliveryRetryPolicy

        func enqueue(key: String = "flow-1:code-1", projectId: String = "prj_1") async throws -> String {
            try await database.write { repositories in
                try await repositories.deliveryOutbox.enqueue(
                    DeliveryTests.request(key: key, projectId: projectId), now: clock.now().epochMilliseconds)
            }
        }

        func status(_ id: String) async throws -> DeliveryStatus? {
            try await database.read { try await $0.deliveryOutbox.status(id: id) }
        }

        /// The stored text of a message: subject, body and code.
        func storedText(_ id: String) async throws -> [String?] {
            try await database.read { repositories in
                guard
                    let row = try await repositories.sql.raw(
                        "SELECT subject, body, code FROM delivery_outbox WHERE id = \(bind: id)"
                    ).first()
                else { return [] }
                return [
                    try row.decode(column: "subject", as: String?.self), try row.decode(column: "body", as: String?.self),
                    try row.decode(column: "code", as: String?.self),
                ]
            }
        }

        func stop() async {
            await receiver.stop()
            await database.shutdown()
        }
    }

    static func request(key: String, projectId: String = "prj_1") -> DeliveryRequest {
        DeliveryRequest(
            projectId: projectId, flowId: "flw_1", channel: .email, recipient: "ada@example.com",
            subject: "Your sign-in code", body: Sensitive("Your sign-in code is \(code)."), code: Sensitive(code),
            idempotencyKey: key)
    }

    static func makeFixture(
        timeout: TimeAmount = .seconds(60), retryPolicy: DeliveryRetryPolicy = DeliveryRetryPolicy(),
        lease: TimeInterval = 60
    ) async throws -> Fixture {
        let path = TestFiles.directory
            .appendingPathComponent("keyway-delivery-\(UUID().uuidString)/db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let receiver: WebhookReceiver
        do {
            try await Migrations.apply(to: database, now: Date())
            receiver = try await WebhookReceiver(secret: secret).start()
        } catch {
            await database.shutdown()
            throw error
        }
        let log = LogCapture()
        let provider = WebhookDeliveryProvider(
            url: receiver.url, secret: Sensitive(SymmetricKey(data: Data(secret.utf8))), timeout: timeout,
            clock: clock, logger: log.logger())
        let worker = DeliveryWorker(
            database: database, clock: clock, routing: .always(provider), retryPolicy: retryPolicy, lease: lease,
            logger: log.logger())
        return Fixture(
            database: database, clock: clock, receiver: receiver, worker: worker, log: log, retryPolicy: retryPolicy)
    }

    /// No log line carries the code, the message text or the webhook secret.
    func expectNoSecrets(in log: LogCapture) {
        for line in log.all {
            #expect(!line.contains(Self.code), "\(line)")
            #expect(!line.contains("sign-in code is"), "\(line)")
            #expect(!line.contains(Self.secret), "\(line)")
        }
    }

    @Test func deliversOnTheFirstTry() async throws {
        try await withTestServer(Self.makeFixture()) { fixture in
            let id = try await fixture.enqueue()
            #expect(try await fixture.worker.deliverDue() == 1)

            let requests = fixture.receiver.requests
            #expect(requests.count == 1)
            let request = try #require(requests.first)
            #expect(try await fixture.receiver.signaturesAreValid())
            #expect(request.idempotencyKey == "flow-1:code-1")
            #expect(request.contentType == "application/json")
            let payload = try JSONDecoder().decode(WebhookDeliveryProvider.Payload.self, from: request.body)
            #expect(payload.id == id)
            #expect(payload.channel == "email")
            #expect(payload.to == "ada@example.com")
            #expect(payload.subject == "Your sign-in code")
            #expect(payload.body == "Your sign-in code is \(Self.code).")
            #expect(WireCoding.parseTimestamp(payload.createdAt) != nil)

            let status = try #require(try await fixture.status(id))
            #expect(status.state == .delivered)
            #expect(status.attempts == 1)
            #expect(status.deliveredAt != nil)
            #expect(try await fixture.storedText(id) == ["", "", nil])
            #expect(try await fixture.worker.deliverDue() == 0)
            #expect(fixture.receiver.requests.count == 1)
            expectNoSecrets(in: fixture.log)
        }
    }

    @Test func retriesWithBackoffAndTheSameIdempotencyKey() async throws {
        try await withTestServer(Self.makeFixture()) { fixture in
            fixture.receiver.answer(.init(status: 500), .init(status: 503))
            let id = try await fixture.enqueue()

            #expect(try await fixture.worker.deliverDue() == 1)
            var status = try #require(try await fixture.status(id))
            #expect(status.state == .pending)
            #expect(status.attempts == 1)
            #expect(status.lastError == "the webhook answered HTTP 500")
            #expect(status.isFailing && status.firstAttemptFinished)
            // Due after 2 s ± 20 %: not yet.
            let firstDelay = status.nextAttemptAt.timeIntervalSince(fixture.clock.now())
            #expect(firstDelay >= 1.59 && firstDelay <= 2.41)
            fixture.clock.advance(by: 1.5)
            #expect(try await fixture.worker.deliverDue() == 0)

            fixture.clock.advance(by: 1)
            #expect(try await fixture.worker.deliverDue() == 1)
            status = try #require(try await fixture.status(id))
            #expect(status.attempts == 2)
            let secondDelay = status.nextAttemptAt.timeIntervalSince(fixture.clock.now())
            #expect(secondDelay >= 3.19 && secondDelay <= 4.81)

            fixture.clock.advance(by: fixture.retryPolicy.longestDelay(afterAttempt: 2))
            #expect(try await fixture.worker.deliverDue() == 1)
            status = try #require(try await fixture.status(id))
            #expect(status.state == .delivered)
            #expect(status.attempts == 3)

            let requests = fixture.receiver.requests
            #expect(requests.map(\.answered) == [500, 503, 200])
            #expect(Set(requests.map(\.idempotencyKey)) == ["flow-1:code-1"])
            #expect(try await fixture.receiver.signaturesAreValid())
            let accepted = requests.filter { (200..<300).contains($0.answered) }
            #expect(accepted.count == 1)
            expectNoSecrets(in: fixture.log)
        }
    }

    @Test func aPermanentFailureMakesAWipedDeadLetter() async throws {
        try await withTestServer(Self.makeFixture()) { fixture in
            fixture.receiver.answer(.init(status: 400))
            let id = try await fixture.enqueue()
            let other = try await fixture.enqueue(key: "other", projectId: "prj_2")
            fixture.receiver.answer(.init(status: 404))
            #expect(try await fixture.worker.deliverDue() == 2)

            let status = try #require(try await fixture.status(id))
            #expect(status.state == .dead)
            #expect(status.lastError == "the webhook answered HTTP 400" || status.lastError == "the webhook answered HTTP 404")
            #expect(try await fixture.storedText(id) == ["", "", nil])
            let letters = try await fixture.database.read { try await $0.deliveryOutbox.deadLetters(projectId: "prj_1") }
            #expect(letters.map(\.id) == [id])
            let all = try await fixture.database.read { try await $0.deliveryOutbox.deadLetters() }
            #expect(Set(all.map(\.id)) == [id, other])

            // Nothing retries a dead letter on its own.
            fixture.clock.advance(by: 3600)
            #expect(try await fixture.worker.deliverDue() == 0)

            // A retry brings new text and delivers it.
            let retried = try await fixture.database.write { repositories in
                try await repositories.deliveryOutbox.retry(
                    id: id, subject: "Your sign-in code", body: Sensitive("Your sign-in code is 000111."),
                    code: Sensitive("000111"), now: fixture.clock.now().epochMilliseconds)
            }
            #expect(retried)
            #expect(try await fixture.worker.deliverDue() == 1)
            #expect(try await fixture.status(id)?.state == .delivered)
            let notDead = try await fixture.database.write { repositories in
                try await repositories.deliveryOutbox.retry(
                    id: id, subject: "", body: "", code: nil, now: fixture.clock.now().epochMilliseconds)
            }
            #expect(!notDead)
            expectNoSecrets(in: fixture.log)
        }
    }

    @Test func givesUpAfterMaxAttempts() async throws {
        var policy = DeliveryRetryPolicy()
        policy.maxAttempts = 3
        try await withTestServer(Self.makeFixture(retryPolicy: policy)) { fixture in
            fixture.receiver.answer(.init(status: 503), .init(status: 429), .init(status: 502))
            let id = try await fixture.enqueue()
            for attempt in 1...3 {
                #expect(try await fixture.worker.deliverDue() == 1)
                fixture.clock.advance(by: policy.longestDelay(afterAttempt: attempt))
            }
            let status = try #require(try await fixture.status(id))
            #expect(status.state == .dead)
            #expect(status.attempts == 3)
            #expect(status.lastError == "the webhook answered HTTP 502")
            #expect(try await fixture.storedText(id) == ["", "", nil])
            #expect(try await fixture.worker.deliverDue() == 0)
            #expect(fixture.receiver.requests.count == 3)
        }
    }

    @Test func aTimeoutIsRetried() async throws {
        // A timeout with room to spare for the retry's prompt answer on a loaded machine.
        try await withTestServer(Self.makeFixture(timeout: .seconds(3))) { fixture in
            fixture.receiver.answer(.init(status: 200, delay: .seconds(6)))
            let id = try await fixture.enqueue()
            #expect(try await fixture.worker.deliverDue() == 1)
            let status = try #require(try await fixture.status(id))
            #expect(status.state == .pending)
            #expect(status.lastError == "the webhook did not answer in time")

            fixture.clock.advance(by: fixture.retryPolicy.longestDelay(afterAttempt: 1))
            #expect(try await fixture.worker.deliverDue() == 1)
            let retried = try await fixture.status(id)
            #expect(retried?.state == .delivered, "\(String(describing: retried?.lastError))")
            // Both requests carried one key for the receiver to deduplicate on (the first one is
            // answered later, to nobody).
            let keys = fixture.receiver.requests.map(\.idempotencyKey)
            #expect(keys == ["flow-1:code-1", "flow-1:code-1"])
            #expect(try await fixture.receiver.signaturesAreValid())
        }
    }

    @Test func aCrashBetweenClaimAndResultDeliversOnceAfterTheLease() async throws {
        try await withTestServer(Self.makeFixture(lease: 30)) { fixture in
            let id = try await fixture.enqueue()
            // A worker claims the message and dies before sending or recording anything.
            let claimed = try await fixture.database.write { repositories in
                try await repositories.deliveryOutbox.claimDue(
                    now: fixture.clock.now().epochMilliseconds, limit: 10, lease: 30_000)
            }
            #expect(claimed.map(\.id) == [id])
            #expect(try await fixture.status(id)?.state == .sending)

            // Held by the lease: no second sender.
            #expect(try await fixture.worker.deliverDue() == 0)
            fixture.clock.advance(by: 29)
            #expect(try await fixture.worker.deliverDue() == 0)

            fixture.clock.advance(by: 2)
            #expect(try await fixture.worker.deliverDue() == 1)
            let status = try #require(try await fixture.status(id))
            #expect(status.state == .delivered)
            #expect(status.attempts == 2)
            #expect(fixture.receiver.requests.count == 1)

            // The crashed attempt's late result changes nothing.
            try await fixture.database.write { repositories in
                try await repositories.deliveryOutbox.markDead(
                    id: id, attempt: 1, error: "late", now: fixture.clock.now().epochMilliseconds)
            }
            #expect(try await fixture.status(id)?.state == .delivered)
        }
    }

    @Test func aRolledBackEnqueueSendsNothing() async throws {
        struct Abort: Error {}
        try await withTestServer(Self.makeFixture()) { fixture in
            let now = fixture.clock.now().epochMilliseconds
            let ids = Locked<[String]>([])
            await #expect(throws: Abort.self) {
                try await fixture.database.write { repositories in
                    let id = try await repositories.deliveryOutbox.enqueue(Self.request(key: "rolled-back"), now: now)
                    ids.withLock { $0.append(id) }
                    throw Abort()
                }
            }
            let id = try #require(ids.current.first)
            #expect(try await fixture.status(id) == nil)
            #expect(try await fixture.worker.deliverDue() == 0)
            #expect(fixture.receiver.requests.isEmpty)
        }
    }

    @Test func oneIdempotencyKeyIsOneMessage() async throws {
        try await withTestServer(Self.makeFixture()) { fixture in
            let first = try await fixture.enqueue(key: "same")
            let second = try await fixture.enqueue(key: "same")
            #expect(first == second)
            #expect(try await fixture.worker.deliverDue() == 1)
            #expect(fixture.receiver.requests.count == 1)
        }
    }

    @Test func concurrentWorkersSendEachMessageOnce() async throws {
        try await withTestServer(Self.makeFixture()) { fixture in
            for index in 0..<12 { _ = try await fixture.enqueue(key: "message-\(index)") }
            let provider = WebhookDeliveryProvider(
                url: fixture.receiver.url, secret: Sensitive(SymmetricKey(data: Data(Self.secret.utf8))),
                clock: fixture.clock, logger: fixture.log.logger())
            let workers = (0..<3).map { _ in
                DeliveryWorker(
                    database: fixture.database, clock: fixture.clock, routing: .always(provider), batchSize: 4,
                    logger: fixture.log.logger())
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in workers {
                    group.addTask { while try await worker.deliverDue() > 0 {} }
                }
                try await group.waitForAll()
            }
            let keys = fixture.receiver.requests.map(\.idempotencyKey)
            #expect(keys.count == 12)
            #expect(Set(keys).count == 12)
        }
    }

    @Test func awaitsTheFirstAttempt() async throws {
        try await withTestServer(Self.makeFixture()) { fixture in
            fixture.receiver.answer(.init(status: 503))
            let failing = try await fixture.enqueue(key: "failing")
            // Nobody delivers: the wait ends at its timeout with the message still pending.
            let waited = try #require(try await fixture.worker.awaitFirstAttempt(id: failing, timeout: .milliseconds(100)))
            #expect(waited.state == .pending && !waited.firstAttemptFinished)

            // Once an attempt has run, the wait answers at once with the finished, failing status.
            #expect(try await fixture.worker.deliverDue() == 1)
            let failed = try #require(try await fixture.worker.awaitFirstAttempt(id: failing, timeout: .seconds(30)))
            #expect(failed.firstAttemptFinished && failed.isFailing)

            #expect(try await fixture.worker.awaitFirstAttempt(id: "dlv_unknown", timeout: .milliseconds(10)) == nil)
        }
    }

    @Test func theServiceDeliversWhenWoken() async throws {
        try await withTestServer(Self.makeFixture()) { fixture in
            let worker = DeliveryWorker(
                database: fixture.database, clock: fixture.clock,
                routing: .always(
                    WebhookDeliveryProvider(
                        url: fixture.receiver.url, secret: Sensitive(SymmetricKey(data: Data(Self.secret.utf8))),
                        clock: fixture.clock, logger: fixture.log.logger())),
                pollInterval: .seconds(3600), logger: fixture.log.logger())
            let service = Task { try await worker.run() }
            // The service has made its first round (nothing was due) and waits: only a wake can
            // start the next one within the hour.
            try await waitUntil("the service waits for work") { worker.isWaitingForWork }
            let id = try await fixture.enqueue()
            worker.wake()
            let status = try #require(try await worker.awaitFirstAttempt(id: id, timeout: .seconds(30)))
            #expect(status.state == .delivered)
            service.cancel()
            try await service.value
        }
    }

    @Test func messagesWithoutAProviderDie() async throws {
        try await withTestServer(Self.makeFixture()) { fixture in
            let worker = DeliveryWorker(
                database: fixture.database, clock: fixture.clock, routing: DeliveryRouting { _, _ in nil },
                logger: fixture.log.logger())
            let id = try await fixture.enqueue()
            #expect(try await worker.deliverDue() == 1)
            let status = try #require(try await fixture.status(id))
            #expect(status.state == .dead)
            #expect(status.lastError == "no delivery provider for channel email")
        }
    }

    @Test func backoffDoublesUpToItsCap() {
        let policy = DeliveryRetryPolicy(maxAttempts: 9, baseDelay: 2, maxDelay: 60, jitter: 0.2)
        #expect((1...7).map { policy.nominalDelay(afterAttempt: $0) } == [2, 4, 8, 16, 32, 60, 60])
        #expect(abs(policy.delay(afterAttempt: 1, unit: -1) - 1.6) < 1e-9)
        #expect(abs(policy.delay(afterAttempt: 1, unit: 1) - 2.4) < 1e-9)
        #expect(policy.delay(afterAttempt: 3, unit: 0) == 8)
        #expect(abs(policy.longestDelay(afterAttempt: 2) - 4.8) < 1e-9)
    }

    @Test func statusCodesSettleAttempts() {
        #expect(WebhookDeliveryProvider.outcome(status: 200) == .delivered)
        #expect(WebhookDeliveryProvider.outcome(status: 204) == .delivered)
        for status: UInt in [408, 429, 500, 502, 503] {
            #expect(WebhookDeliveryProvider.outcome(status: status) == .retryable("the webhook answered HTTP \(status)"))
        }
        for status: UInt in [301, 400, 401, 403, 404, 422] {
            #expect(WebhookDeliveryProvider.outcome(status: status) == .permanent("the webhook answered HTTP \(status)"))
        }
    }

    @Test func theSignatureMatchesAnIndependentImplementation() async throws {
        let body = Data(#"{"id":"dlv_1","body":"x"}"#.utf8)
        let header = WebhookDeliveryProvider.signature(
            body: body, timestamp: 1_800_000_000, secret: SymmetricKey(data: Data(Self.secret.utf8)))
        #expect(header.hasPrefix("t=1800000000,v1="))
        #expect(try await WebhookReceiver.verify([[header, body.base64EncodedString()]], secret: Self.secret))
        let tampered = Data("tampered".utf8).base64EncodedString()
        #expect(!(try await WebhookReceiver.verify([[header, tampered]], secret: Self.secret)))
    }
}
