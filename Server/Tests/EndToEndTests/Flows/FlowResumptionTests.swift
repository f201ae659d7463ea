import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Resuming an unfinished flow in a new process")
struct FlowResumptionTests {
    /// A file storage in a fresh folder; each call with the same folder opens the same file, as
    /// a restarted process would.
    static func storage(in directory: URL) throws -> FileSecureStorage {
        try FileSecureStorage(
            directory: directory, namespace: "flows", keySource: .keyFile(directory.appendingPathComponent("flows.key")))
    }

    static func freshDirectory() -> URL {
        TestFiles.directory.appendingPathComponent("keyway-resume-\(UUID().uuidString)")
    }

    func sdk(_ server: TestServer, clock: ManualClock, storage: any SecureStorage) throws -> KeywayClient {
        try KeywayClient(
            configID: TestServer.configId, baseURL: server.baseURL,
            options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, resumableFlowStorage: storage))
    }

    @Test func aFlowKilledOnTheCodeScreenResumesWithoutANewCode() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let directory = Self.freshDirectory()
            let email = "resume@example.com"

            // First process: the flow reaches the code prompt, then the process dies.
            let first = try sdk(server, clock: clock, storage: try Self.storage(in: directory))
            await first.flow.start(identifier: email)
            let original = try #require(first.flow.currentUpdate.enterCode)
            #expect(try await server.outbox(to: email).count == 1)

            // Second process: same storage file, new SDK instance.
            clock.advance(by: 20)
            let second = try sdk(server, clock: clock, storage: try Self.storage(in: directory))
            #expect(try await second.flow.resume())
            let resumed = try #require(second.flow.currentUpdate.enterCode)
            #expect(resumed.destination == original.destination)
            #expect(resumed.resendAt == original.resendAt)
            #expect(try await server.outbox(to: email).count == 1, "resuming must not send a code")

            await second.flow.submitCode(try await server.latestCode(to: email))
            let completion = try #require(second.flow.currentUpdate.completion)
            let verifier = try #require(completion.codeVerifier, "the saved PKCE verifier comes back")
            let tokens = try await second.tokens.exchange(authCode: completion.authCode, codeVerifier: verifier)
            #expect(tokens.idToken.email == email)

            // Completion forgets the saved flow.
            let third = try sdk(server, clock: clock, storage: try Self.storage(in: directory))
            #expect(try await third.flow.resume() == false)
            #expect(third.flow.currentUpdate == .idle)
        }
    }

    @Test func expiredCancelledAndUnknownFlowsAreNotResumed() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let storage = InMemorySecureStorage()

            // Expired by the saved expiry: forgotten without asking the server.
            let expiring = try sdk(server, clock: clock, storage: storage)
            await expiring.flow.start(identifier: "expire@example.com")
            #expect(try await storage.read(key: "keyway.flow.\(TestServer.configId)") != nil)
            clock.advance(by: 15 * 60 + 1)
            #expect(try await sdk(server, clock: clock, storage: storage).flow.resume() == false)
            #expect(try await storage.read(key: "keyway.flow.\(TestServer.configId)") == nil)

            // Cancelled: nothing is left to resume.
            let cancelling = try sdk(server, clock: clock, storage: storage)
            await cancelling.flow.start(identifier: "cancel@example.com")
            await cancelling.flow.cancel()
            #expect(try await storage.read(key: "keyway.flow.\(TestServer.configId)") == nil)

            // Reset forgets it too.
            let resetting = try sdk(server, clock: clock, storage: storage)
            await resetting.flow.start(identifier: "reset@example.com")
            await resetting.flow.reset()
            #expect(try await sdk(server, clock: clock, storage: storage).flow.resume() == false)

            // Cancelled on the server by another party: the server's answer ends it.
            let abandoned = try sdk(server, clock: clock, storage: storage)
            await abandoned.flow.start(identifier: "gone@example.com")
            let saved = try #require(try await storage.read(key: "keyway.flow.\(TestServer.configId)"))
            let json = try #require(try JSONSerialization.jsonObject(with: saved) as? [String: Any])
            let flowId = try #require(json["flowId"] as? String)
            let flowToken = try #require(json["flowToken"] as? String)
            let deleted = try await server.request(
                "DELETE", "/v1/flows/\(flowId)",
                headers: ["X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": flowToken])
            #expect((200..<300).contains(deleted.status))
            let later = try sdk(server, clock: clock, storage: storage)
            #expect(try await later.flow.resume() == false)
            #expect(try await storage.read(key: "keyway.flow.\(TestServer.configId)") == nil)
        }
    }

    @Test func aWrongCodeAfterResumingCountsAsUsual() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let storage = InMemorySecureStorage()
            let first = try sdk(server, clock: clock, storage: storage)
            await first.flow.start(identifier: "wrong@example.com")
            let second = try sdk(server, clock: clock, storage: storage)
            #expect(try await second.flow.resume())
            await second.flow.submitCode("000000" == (try await server.latestCode(to: "wrong@example.com")) ? "111111" : "000000")
            #expect(second.flow.currentUpdate.errorInfo?.code == .invalidCode)
            // Still resumable: the flow lives on.
            #expect(try await sdk(server, clock: clock, storage: storage).flow.resume())
        }
    }

    @Test func resumingWithoutStorageOrWhileStorageIsLockedThrows() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            await #expect(throws: KeywayError.self) { _ = try await makeKeyway(server, clock: clock).flow.resume() }

            // A server that cannot be reached keeps the saved flow for a later try.
            let storage = InMemorySecureStorage()
            let starting = try sdk(server, clock: clock, storage: storage)
            await starting.flow.start(identifier: "offline@example.com")
            let offline = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL,
                options: KeywayOptions(completedSignIns: .handOver, transport: FailingTransport(), clock: clock, resumableFlowStorage: storage))
            await #expect(throws: KeywayError.self) { _ = try await offline.flow.resume() }
            #expect(try await sdk(server, clock: clock, storage: storage).flow.resume())
        }
    }
}

/// A transport whose every request fails as an unreachable server would.
struct FailingTransport: HTTPTransport {
    func send(_ request: TransportRequest) async throws -> TransportResponse {
        throw KeywayError.networkFailure("The network is down.")
    }
}

/// Answers `GET /v1/flows/…` with a 503 problem while `failing` is set; everything else goes
/// through to the server.
final class FailingFlowReadTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `failing` is only touched under `lock`.
    private let inner = URLSessionTransport()
    private let lock = NSLock()
    private var failing = true

    func stopFailing() { lock.withLock { failing = false } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        if request.method == "GET", request.url.path.hasPrefix("/v1/flows/"), lock.withLock({ failing }) {
            let problem = Problem(
                code: .serviceUnavailable, status: 503, title: "Service unavailable", detail: "Try again shortly.",
                action: .retryRequest, retryable: true)
            return TransportResponse(
                status: 503, headers: ["Content-Type": "application/problem+json"],
                body: try WireCoding.makeEncoder().encode(problem))
        }
        return try await inner.send(request)
    }
}

extension FlowResumptionTests {
    @Test func aServerThatCannotTellNowKeepsTheSavedFlow() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let directory = Self.freshDirectory()
            let email = "busy@example.com"
            let first = try sdk(server, clock: clock, storage: try Self.storage(in: directory))
            await first.flow.start(identifier: email)
            #expect(first.flow.currentUpdate.enterCode != nil)

            let transport = FailingFlowReadTransport()
            let second = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL,
                options: KeywayOptions(
                    completedSignIns: .handOver, transport: transport, clock: clock, resumableFlowStorage: try Self.storage(in: directory)))
            await #expect(throws: FlowError.self) { try await second.flow.resume() }
            // Kept: once the server answers, the flow resumes and completes.
            transport.stopFailing()
            #expect(try await second.flow.resume())
            await second.flow.submitCode(try await server.latestCode(to: email))
            #expect(second.flow.currentUpdate.completion != nil)
        }
    }
}
