import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Collects a stream's values in the background.
final class Collector<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `values` is only touched under `lock`.
    private let lock = NSLock()
    private var values: [Value] = []
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<Value>) {
        task = Task { [weak self] in
            for await value in stream { self?.lock.withLock { self?.values.append(value) } }
        }
    }

    var all: [Value] { lock.withLock { values } }

    /// Waits until `count` values arrived (or 30 seconds passed) and returns them.
    func wait(for count: Int) async -> [Value] {
        try? await waitUntil("\(count) values arrived") { all.count >= count }
        return all
    }

    func cancel() { task?.cancel() }
}

@Suite("Observable auth state and events")
struct StateAndEventsTests {
    func signIn(_ keyway: KeywayClient, _ server: TestServer, email: String) async throws -> TokenSet {
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
    }

    @Test func flowEventsComeInOrderWithTheUserTypeAndNoSecrets() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let events = Collector(keyway.events)
            let first = try await signIn(keyway, server, email: "events@example.com")
            let second = try await signIn(keyway, server, email: "events@example.com")

            // Five wrong codes end the flow.
            await keyway.flow.start(identifier: "events@example.com")
            let code = try await server.latestCode(to: "events@example.com")
            for _ in 0..<5 { await keyway.flow.submitCode(code == "000000" ? "111111" : "000000") }

            let received = await events.wait(for: 6)
            #expect(received.map(\.name) == [.signInStarted, .signInCompleted, .signInStarted, .signInCompleted, .signInStarted, .signInFailed])
            #expect(received[1].data["userType"] == "new")
            #expect(received[3].data["userType"] == "existing")
            #expect(received[1].data["flowType"] == "signin")
            #expect(received[5].data["code"] == "too_many_attempts")
            // Nothing secret or typed by the user travels in events.
            let secrets = [
                code, first.response.accessToken.revealed, second.response.refreshToken!.revealed, "events@example.com",
            ]
            for event in received {
                for value in event.data.values { #expect(!secrets.contains(where: value.contains), "\(event)") }
            }
            events.cancel()
        }
    }

    @Test func stateFollowsSignInRefreshAndSignOutAndEmitsOnlyOnChange() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let storage = InMemorySecureStorage()
            let session = KeywaySession(keyway: keyway, storage: storage)
            await session.reloadState()
            #expect(session.state.snapshot == KeywayState())

            let authenticated = Collector(session.state.subscribe { $0.auth.isAuthenticated })
            let tokens = Collector(session.state.subscribe { $0.auth.accessToken })
            let events = Collector(keyway.events)

            let set = try await signIn(keyway, server, email: "state@example.com")
            try await session.save(set)
            let signedIn = session.state.snapshot
            #expect(signedIn.auth.isAuthenticated)
            #expect(signedIn.auth.isAccessTokenValid)
            #expect(signedIn.auth.isVerifiedUser)
            #expect(signedIn.auth.hasPreviouslySignedIn)
            #expect(signedIn.auth.accessToken == set.response.accessToken)
            #expect(signedIn.user == UserState(id: set.idToken.subject, data: ["email": "state@example.com", "emailVerified": "true"]))

            // A refresh changes the token, not the authentication.
            try await session.refresh()
            // The access token expires: the snapshot says so.
            clock.advance(by: 16 * 60)
            #expect(session.state.snapshot.auth.isAccessTokenValid == false)
            _ = try await session.accessToken()
            #expect(session.state.snapshot.auth.isAccessTokenValid)

            try await session.signOut()
            let signedOut = session.state.snapshot
            #expect(!signedOut.auth.isAuthenticated)
            #expect(signedOut.auth.hasPreviouslySignedIn)
            #expect(signedOut.user.id == nil)

            #expect(await authenticated.wait(for: 3) == [false, true, false])
            let tokenValues = await tokens.wait(for: 5)
            #expect(tokenValues.count == 5, "nil, signed in, refreshed, refreshed again, signed out")
            #expect(Set(tokenValues.compactMap { $0?.revealed }).count == 3)
            let names = await events.wait(for: 5).map(\.name)
            #expect(names == [.signInStarted, .signInCompleted, .tokenRefreshed, .tokenRefreshed, .signedOut])
            for collector in [authenticated] as [Collector<Bool>] { collector.cancel() }
            tokens.cancel()
            events.cancel()
        }
    }

    @Test func unavailableStorageIsItsOwnStateAndSignsNobodyOut() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let storage = InMemorySecureStorage()
            let session = KeywaySession(keyway: keyway, storage: storage)
            try await session.save(try await signIn(keyway, server, email: "locked@example.com"))
            await storage.setUnavailable("The device is locked.")
            await session.reloadState()
            let locked = session.state.snapshot.auth
            #expect(locked.isStorageUnavailable)
            #expect(locked.isAuthenticated, "the last known state stays")
            await #expect(throws: SessionError.storageUnavailable("The device is locked.")) { _ = try await session.accessToken() }
            await storage.setUnavailable(nil)
            await session.reloadState()
            #expect(!session.state.snapshot.auth.isStorageUnavailable)
            #expect(session.state.snapshot.auth.isAuthenticated)
        }
    }

    @Test func aRefusedRefreshTokenIsSessionExpired() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            let set = try await signIn(keyway, server, email: "expired@example.com")
            try await session.save(set)
            let events = Collector(keyway.events)
            try await keyway.tokenClient.signOutEverywhere(accessToken: set.response.accessToken)
            await #expect(throws: SessionError.self) { try await session.refresh() }
            #expect(await events.wait(for: 1).map(\.name) == [.sessionExpired])
            #expect(!session.state.snapshot.auth.isAuthenticated)
            events.cancel()
        }
    }

    @Test func stateSurvivesARestartAndIsSharedBetweenSessionsOfOneStorage() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let directory = TestFiles.directory.appendingPathComponent("keyway-state-\(UUID().uuidString)")
            func storage() throws -> FileSecureStorage {
                try FileSecureStorage(
                    directory: directory, namespace: "shared", keySource: .keyFile(directory.appendingPathComponent("k")))
            }
            // The app and its extension: two SDK instances, each with its own handle on the same file.
            let app = KeywaySession(keyway: try makeKeyway(server, clock: clock), storage: try storage())
            let extensionSession = KeywaySession(keyway: try makeKeyway(server, clock: clock), storage: try storage())
            await extensionSession.reloadState()
            let seen = Collector(extensionSession.state.subscribe { $0.user.id })
            let set = try await signIn(try makeKeyway(server, clock: clock), server, email: "shared@example.com")
            try await app.save(set)
            #expect(await seen.wait(for: 2) == [nil, set.idToken.subject])
            seen.cancel()

            // A new process: the state comes back from storage.
            let restarted = KeywaySession(keyway: try makeKeyway(server, clock: clock), storage: try storage())
            #expect(restarted.state.snapshot.auth.isLoading)
            await restarted.reloadState()
            #expect(restarted.state.snapshot.auth.isAuthenticated)
            #expect(restarted.state.snapshot.user.id == set.idToken.subject)
            #expect(!restarted.state.snapshot.auth.isLoading)
        }
    }

    @Test func pollingPicksUpChangesFromAnotherProcess() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            // A storage that is a value type has no identity to share notifications through, like
            // storage written by another process: only polling sees the change.
            let backing = InMemorySecureStorage()
            let writer = KeywaySession(keyway: try makeKeyway(server, clock: clock), storage: ValueStorage(backing: backing))
            let reader = KeywaySession(
                keyway: try makeKeyway(server, clock: clock), storage: ValueStorage(backing: backing),
                statePollInterval: .milliseconds(50))
            let set = try await signIn(try makeKeyway(server, clock: clock), server, email: "poll@example.com")
            try await writer.save(set)
            let ids = Collector(reader.state.subscribe { $0.user.id })
            let values = await ids.wait(for: 2)
            #expect(values.last == set.idToken.subject)
            ids.cancel()
        }
    }

    @MainActor
    @Test func theObservableModelFollowsTheStore() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            await session.reloadState()
            let model = KeywayStateModel(store: session.state)
            #expect(!model.auth.isAuthenticated)
            try await session.save(try await signIn(keyway, server, email: "model@example.com"))
            try await waitUntil("the model shows the sign-in") { model.auth.isAuthenticated }
            #expect(model.auth.isAuthenticated)
            #expect(model.user.data["email"] == "model@example.com")
        }
    }
}

/// A storage without reference identity, forwarding to a shared backing store.
struct ValueStorage: SecureStorage {
    let backing: InMemorySecureStorage
    func read(key: String) async throws(SecureStorageError) -> Data? { try await backing.read(key: key) }
    func write(key: String, data: Data) async throws(SecureStorageError) { try await backing.write(key: key, data: data) }
    func delete(key: String) async throws(SecureStorageError) { try await backing.delete(key: key) }
}
