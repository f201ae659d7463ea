import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// The real URLSession transport, counting refresh requests and failing the first ones on demand.
final class CountingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: the counters are only touched under `lock`.
    private let lock = NSLock()
    private let inner = URLSessionTransport()
    private var refreshes = 0
    private var failuresLeft = 0

    var refreshCount: Int { lock.withLock { refreshes } }

    /// Makes the next `count` refresh requests fail as an unreachable server would.
    func failNextRefreshes(_ count: Int) { lock.withLock { failuresLeft = count } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let isRefresh = request.body.map { String(decoding: $0, as: UTF8.self).contains("grant_type=refresh_token") } ?? false
        if isRefresh {
            let fail = lock.withLock { () -> Bool in
                refreshes += 1
                guard failuresLeft > 0 else { return false }
                failuresLeft -= 1
                return true
            }
            if fail { throw URLError(.cannotConnectToHost) }
        }
        return try await inner.send(request)
    }
}

@Suite("Session: stored tokens, refresh, single flight, failures")
struct SessionTests {
    struct Setup: ScopedTestServer {
        let server: TestServer
        let clock: ManualClock
        let keyway: KeywayClient
        let transport: CountingTransport
        let storage: InMemorySecureStorage
        let session: KeywaySession
        let first: TokenSet

        func stop() async { await server.stop() }
    }

    func signedIn(email: String, retry: KeywaySession.RetryPolicy = .init(maxAttempts: 3, baseDelay: 0.01)) async throws
        -> Setup
    {
        let clock = ManualClock()
        return try await TestServer.start(clock: clock).settingUp { server in
            let transport = CountingTransport()
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL,
                options: KeywayOptions(completedSignIns: .handOver, transport: transport, clock: clock))
            await keyway.flow.start(identifier: email)
            await keyway.flow.submitCode(try await server.latestCode(to: email))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(
                authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            let storage = InMemorySecureStorage()
            let session = KeywaySession(keyway: keyway, storage: storage, retryPolicy: retry)
            try await session.save(tokens)
            return Setup(
                server: server, clock: clock, keyway: keyway, transport: transport, storage: storage, session: session,
                first: tokens)
        }
    }

    @Test func refreshesOnlyWhenTheTokenIsAboutToExpire() async throws {
        try await withTestServer(signedIn(email: "session@example.com")) { setup in
            #expect(try await setup.session.accessToken() == setup.first.response.accessToken)
            setup.clock.advance(by: 15 * 60 - 61)
            #expect(try await setup.session.accessToken() == setup.first.response.accessToken)
            #expect(setup.transport.refreshCount == 0)

            // Inside the 60-second skew: refreshed, and the new pair is what storage holds.
            setup.clock.advance(by: 2)
            let fresh = try #require(try await setup.session.accessToken())
            #expect(fresh != setup.first.response.accessToken)
            #expect(setup.transport.refreshCount == 1)
            let stored = try #require(try await setup.session.tokens())
            #expect(stored.response.accessToken == fresh)
            #expect(stored.response.refreshToken != setup.first.response.refreshToken)
            #expect(stored.idToken.subject == setup.first.idToken.subject)
            #expect(try await setup.keyway.tokenClient.userInfo(accessToken: fresh).subject == stored.idToken.subject)
        }
    }

    @Test func signingOutOfAllDevicesEndsTheOtherDevicesSessions() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            func device() async throws -> KeywaySession {
                let keyway = try makeKeyway(server, clock: clock)
                await keyway.flow.start(identifier: "everywhere@example.com")
                await keyway.flow.submitCode(try await server.latestCode(to: "everywhere@example.com"))
                let completion = try #require(keyway.flow.currentUpdate.completion)
                let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
                try await session.save(
                    try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier)))
                return session
            }
            let phone = try await device()
            let laptop = try await device()
            try await phone.signOut(scope: .allDevices)
            #expect(try await phone.accounts().isEmpty)
            await #expect(throws: SessionError.self) { try await laptop.refresh() }
            #expect(try await laptop.accounts().isEmpty)
        }
    }

    @Test func concurrentCallersShareOneRefresh() async throws {
        try await withTestServer(signedIn(email: "flight@example.com")) { setup in
            setup.clock.advance(by: 16 * 60)
            let session = setup.session
            let tokens = try await withThrowingTaskGroup(of: Sensitive<String>?.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await session.accessToken() }
                }
                var all: [Sensitive<String>?] = []
                for try await token in group { all.append(token) }
                return all
            }
            #expect(tokens.count == 100)
            #expect(Set(tokens.map { $0?.revealed }).count == 1)
            #expect(setup.transport.refreshCount == 1)
        }
    }

    @Test func aRefusedRefreshTokenSignsOut() async throws {
        try await withTestServer(signedIn(email: "refused@example.com")) { setup in
            try await setup.keyway.tokens.revoke(token: try #require(setup.first.response.refreshToken))
            setup.clock.advance(by: 16 * 60)
            await #expect {
                _ = try await setup.session.accessToken()
            } throws: { error in
                guard case SessionError.invalidRefreshToken = error else { return false }
                return true
            }
            #expect(try await setup.session.tokens() == nil)
            // Signed out: nil, as documented, or the error when the caller asks for it.
            #expect(try await setup.session.accessToken() == nil)
            await #expect(throws: SessionError.noAccessTokenPresent) {
                _ = try await setup.session.accessToken(throwIfMissing: true)
            }
        }
    }

    @Test func networkFailuresAreRetriedThenReported() async throws {
        try await withTestServer(signedIn(email: "retry@example.com")) { setup throws in
            setup.clock.advance(by: 16 * 60)
            setup.transport.failNextRefreshes(2)
            #expect(try await setup.session.accessToken() != setup.first.response.accessToken)
            #expect(setup.transport.refreshCount == 3)

            setup.clock.advance(by: 16 * 60)
            setup.transport.failNextRefreshes(3)
            await #expect {
                _ = try await setup.session.accessToken()
            } throws: { error in
                guard case SessionError.networkConnectionFailure = error else { return false }
                return true
            }
            // The session survived: the next call refreshes.
            #expect(try await setup.session.tokens() != nil)
            #expect(try await setup.session.accessToken() != nil)
        }
    }

    @Test func unavailableStorageIsNotASignOut() async throws {
        try await withTestServer(signedIn(email: "locked@example.com")) { setup throws in
            await setup.storage.setUnavailable("device locked")
            await #expect(throws: SessionError.storageUnavailable("device locked")) {
                _ = try await setup.session.accessToken()
            }
            await setup.storage.setUnavailable(nil)
            #expect(try await setup.session.accessToken() == setup.first.response.accessToken)
        }
    }

    @Test func signOutRevokesAndForgets() async throws {
        try await withTestServer(signedIn(email: "signout@example.com")) { setup in
            try await setup.session.signOut()
            #expect(try await setup.session.tokens() == nil)
            let refused = try await setup.server.token([
                "grant_type": "refresh_token", "refresh_token": setup.first.response.refreshToken!.revealed,
                "client_id": TestServer.configId,
            ])
            #expect(refused.json["error"] as? String == "invalid_grant")
        }
    }
}

@Suite("Session: two processes sharing file storage")
struct SharedStorageSessionTests {
    @Test func onlyOneOfTwoSessionsOnTheSameFileRefreshes() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let transport = CountingTransport()
            let directory = TestFiles.directory.appendingPathComponent("keyway-shared-\(UUID().uuidString)")
            let keyFile = directory.appendingPathComponent("shared.key")

            // An app and its extension: separate SDK instances and storage objects on one file.
            func member() throws -> (KeywayClient, KeywaySession) {
                let keyway = try KeywayClient(
                    configID: TestServer.configId, baseURL: server.baseURL,
                    options: KeywayOptions(completedSignIns: .handOver, transport: transport, clock: clock))
                let storage = try FileSecureStorage(directory: directory, namespace: "group", keySource: .keyFile(keyFile))
                return (keyway, KeywaySession(keyway: keyway, storage: storage))
            }
            let (app, appSession) = try member()
            let (_, extensionSession) = try member()

            await app.flow.start(identifier: "shared@example.com")
            await app.flow.submitCode(try await server.latestCode(to: "shared@example.com"))
            let completion = try #require(app.flow.currentUpdate.completion)
            try await appSession.save(try await app.tokens.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!))
            #expect(try await extensionSession.tokens()?.idToken.subject != nil)

            clock.advance(by: 16 * 60)
            async let fromApp = appSession.accessToken()
            async let fromExtension = extensionSession.accessToken()
            let (first, second) = try await (fromApp, fromExtension)
            #expect(first == second)
            #expect(transport.refreshCount == 1)
        }
    }
}

@Suite("Session: several accounts")
struct MultiAccountSessionTests {
    @Test func accountsLiveSideBySide() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let storage = InMemorySecureStorage()
            let session = KeywaySession(keyway: keyway, storage: storage)
            func signIn(_ email: String) async throws -> TokenSet {
                await keyway.flow.start(identifier: email)
                await keyway.flow.submitCode(try await server.latestCode(to: email))
                let completion = try #require(keyway.flow.currentUpdate.completion)
                let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!)
                try await session.save(tokens)
                return tokens
            }
            let work = try await signIn("work@example.com")
            let home = try await signIn("home@example.com")
            let workId = work.idToken.subject
            let homeId = home.idToken.subject
            #expect(try await session.accounts() == [workId, homeId])
            #expect(try await session.currentAccount() == homeId)
            #expect(try await session.tokens()?.idToken.email == "home@example.com")

            try await session.switchAccount(to: workId)
            #expect(try await session.accessToken() == work.response.accessToken)
            #expect(try await session.accessToken(account: homeId) == home.response.accessToken)
            await #expect(throws: SessionError.noAccessTokenPresent) { try await session.switchAccount(to: "usr_nobody") }

            // Each account refreshes on its own.
            clock.advance(by: 16 * 60)
            let freshHome = try #require(try await session.accessToken(account: homeId))
            #expect(try await keyway.tokenClient.userInfo(accessToken: freshHome).subject == homeId)
            #expect(try await session.tokens(account: workId)?.response.accessToken == work.response.accessToken)

            // Signing one account out leaves the other, and revokes only its own tokens.
            try await session.signOut(account: homeId)
            #expect(try await session.accounts() == [workId])
            #expect(try await session.currentAccount() == workId)
            #expect(try await session.tokens(account: homeId) == nil)
            let freshWork = try #require(try await session.accessToken())
            #expect(try await keyway.tokenClient.userInfo(accessToken: freshWork).subject == workId)

            try await session.signOutAll()
            #expect(try await session.accounts().isEmpty)
            #expect(try await session.currentAccount() == nil)
            #expect(try await session.accessToken(throwIfMissing: false) == nil)
        }
    }
}

/// In-memory storage whose writes can be made to fail, as when the app dies before the new
/// tokens reach storage.
actor FlakyStorage: SecureStorage {
    private let inner = InMemorySecureStorage()
    private var failWrites = false

    func setFailWrites(_ fail: Bool) { failWrites = fail }

    func read(key: String) async throws(SecureStorageError) -> Data? { try await inner.read(key: key) }

    func write(key: String, data: Data) async throws(SecureStorageError) {
        if failWrites { throw .unavailable("the process died") }
        try await inner.write(key: key, data: data)
    }

    func delete(key: String) async throws(SecureStorageError) { try await inner.delete(key: key) }
}

@Suite("Session: a refresh whose result never reached storage")
struct InterruptedRefreshTests {
    @Test func theGracePeriodRecoversTheLostTokens() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "killed@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "killed@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!)
            let storage = FlakyStorage()
            let session = KeywaySession(keyway: keyway, storage: storage)
            try await session.save(tokens)

            // The server rotates the token, but the new pair is lost before it is stored.
            clock.advance(by: 16 * 60)
            await storage.setFailWrites(true)
            await #expect(throws: SessionError.storageUnavailable("the process died")) { _ = try await session.accessToken() }
            #expect(try await session.tokens()?.response.refreshToken == tokens.response.refreshToken)

            // Relaunched within the grace period: the old token gets the same successor, and the
            // sign-in lives on.
            await storage.setFailWrites(false)
            clock.advance(by: 3)
            let relaunched = KeywaySession(keyway: keyway, storage: storage)
            let fresh = try #require(try await relaunched.accessToken())
            #expect(try await keyway.tokenClient.userInfo(accessToken: fresh).subject == tokens.idToken.subject)
            let next = try #require(try await relaunched.tokens()?.response.refreshToken)
            _ = try await keyway.tokens.refresh(refreshToken: next)
        }
    }
}
