import Foundation
import Keyway
import KeywayPowerAuthClient
import KeywayServer
import KeywayTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The client as the one root an app holds: a sign-in saves itself in `keyway.session`, which
/// outlives the process in its storage and makes the account's calls with its own token.
@Suite("One root: the client's session keeps what the client signs in")
struct OneRootTests {
    @Test func aSignInIsSavedInTheClientsSessionAndKeptAcrossLaunches() async throws {
        let clock = ManualClock()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyway-root-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        func launch(_ server: TestServer) throws -> KeywayClient {
            let storage = try FileSecureStorage(
                directory: folder, namespace: "session", keySource: .keyFile(folder.appendingPathComponent("key")))
            return try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL,
                options: KeywayOptions(storage: storage, transport: URLSessionTransport.patient, clock: clock))
        }
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let first = try launch(server)
            #expect(try await first.session.accessToken() == nil)
            let tokens = try await first.signIn(withCodeSentTo: "root@example.com") { _ in
                try await server.latestCode(to: "root@example.com")
            }
            // Saved before the call returned, as the current account.
            #expect(try await first.session.currentAccount() == tokens.idToken.subject)
            #expect(try await first.session.accessToken() == tokens.response.accessToken)
            #expect(first.session.state.snapshot.auth.isAuthenticated)

            // The next launch reads it back, and its calls bring the token.
            let second = try launch(server)
            await second.session.reloadState()
            #expect(second.session.state.snapshot.auth.isAuthenticated)
            #expect(try await second.session.userInfo().email == "root@example.com")
            var request = URLRequest(url: server.baseURL.appendingPathComponent("v1/me"))
            request = try await second.session.authorizedRequest(request)
            #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer \(tokens.response.accessToken.revealed)")
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)

            try await second.session.signOut()
            #expect(try await launch(server).session.accessToken() == nil)
        }
    }

    @Test func accountManagementStartsFromTheSessionWithItsToken() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AccountSessionsTests.policy)) { harness in
            let keyway = try harness.sdk()
            try await harness.signInWithCode(keyway, email: "managed@example.com")
            try await keyway.session.save(try await harness.tokens(keyway))
            try await keyway.session.manageAccount()
            guard case _? = keyway.flow.currentPrompt?.prompt.manageAccount else {
                throw TestFailure("Expected the account step, got \(keyway.flow.currentUpdate)")
            }
        }
    }

    @Test func withoutSomeoneSignedInTheSessionsCallsSaySo() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock, completedSignIns: .saveToSession)
            await #expect(throws: SessionError.noAccessTokenPresent) { try await keyway.session.manageAccount() }
            await #expect(throws: SessionError.noAccessTokenPresent) {
                try await keyway.session.upgradeGuest(identifier: "nobody@example.com")
            }
            await #expect(throws: SessionError.noAccessTokenPresent) {
                _ = try await keyway.session.authorizedRequest(URLRequest(url: server.baseURL))
            }
            await #expect(throws: SessionError.noAccessTokenPresent) {
                _ = try await UserActivationCodes(keyway: keyway).create(ActivationCodeRequest())
            }
        }
    }
}
