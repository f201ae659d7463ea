import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

/// The account's calls on the session: the app passes no access token; the session's own is
/// refreshed when due, and once more when the server refuses it.
@Suite("Session: the account's calls without an access token")
struct SessionAccountCallsTests {
    @Test func theAccountsCallsUseTheSessionsToken() async throws {
        try await withTestServer(SessionTests().signedIn(email: "calls@example.com")) { setup in
            let session = setup.session
            #expect(try await session.userInfo().email == "calls@example.com")
            #expect(try await session.profile().profile.isEmpty)
            #expect(try await session.trustedDevices().isEmpty)
            await #expect(throws: KeywayError.self) { try await session.revokeTrustedDevice(id: "dev_unknown") }
            try await session.revokeAllTrustedDevices()
            #expect(setup.transport.refreshCount == 0)

            try await session.signOut()
            await #expect(throws: SessionError.noAccessTokenPresent) { _ = try await session.userInfo() }
        }
    }

    @Test func aRefusedAccessTokenIsRefreshedOnceAndTheCallMadeAgain() async throws {
        try await withTestServer(SessionTests().signedIn(email: "refused@example.com")) { setup in
            // A token the server does not accept, still within its lifetime for the session.
            var response = setup.first.response
            response.accessToken = Sensitive(setup.first.response.accessToken.revealed + "x")
            let refused = TokenSet(
                response: response, idToken: setup.first.idToken, accessTokenExpiresAt: setup.first.accessTokenExpiresAt)
            try await setup.session.save(refused)
            #expect(try await setup.session.userInfo().email == "refused@example.com")
            #expect(setup.transport.refreshCount == 1)
            #expect(try await setup.session.accessToken() != refused.response.accessToken)
        }
    }
}
