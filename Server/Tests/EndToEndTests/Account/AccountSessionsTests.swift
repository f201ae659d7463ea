import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Account management lists where the account is signed in and signs the other sessions out:
/// their refresh and access tokens stop working, the step's own session goes on.
@Suite("Signed-in sessions in account management")
struct AccountSessionsTests {
    static var policy: [String: Any] { ["primaryMethods": ["emailOtp"], "flowTypes": ["signin", "accountManage"]] }

    /// Signs `email` in on a new device and redeems the code.
    static func signIn(_ harness: AdaptiveHarness, email: String) async throws -> (KeywayClient, TokenSet) {
        let keyway = try harness.sdk()
        try await harness.signInWithCode(keyway, email: email)
        return (keyway, try await harness.tokens(keyway))
    }

    @Test func theOtherSessionsAreListedAndSignedOut() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let email = "three-places@example.com"
            let (here, mine) = try await Self.signIn(harness, email: email)
            harness.clock.advance(by: 60)
            let (laptopClient, laptop) = try await Self.signIn(harness, email: email)
            harness.clock.advance(by: 60)
            let (tabletClient, tablet) = try await Self.signIn(harness, email: email)
            let laptopAuthorization = ["Authorization": "Bearer \(laptop.response.accessToken.revealed)"]
            #expect(try await harness.server.request("GET", "/v1/me", headers: laptopAuthorization).status == 200)

            await here.startAccountManagement(accessToken: mine.response.accessToken, identifier: email)
            guard case (_, let operations)? = here.flow.currentUpdate.prompt?.manageAccount else {
                Issue.record("Expected account management, got \(here.flow.currentUpdate)")
                return
            }
            #expect(operations.map(\.name).contains("endSession"))
            #expect(operations.map(\.name).contains("endOtherSessions"))
            var sessions = try #require(here.flow.currentUpdate.promptContext?.step.payload.manageAccount?.sessions)
            // Newest first; the step's own marked current.
            #expect(sessions.count == 3)
            #expect(sessions.map(\.current) == [false, false, true])
            #expect(sessions.allSatisfy { $0.methods == ["otp"] && !$0.application.isEmpty })
            #expect(sessions[0].signedInAt > sessions[1].signedInAt)
            // The step's own session is not signed out this way, nor an unknown one.
            let own = try #require(sessions.last?.id)
            await here.flow.endSession(id: own)
            #expect(here.flow.currentUpdate.errorInfo?.code == .invalidRequest)
            await here.flow.endSession(id: "ses_unknown")
            #expect(here.flow.currentUpdate.errorInfo?.code == .invalidRequest)

            // The laptop's session: its refresh token and its access token stop working.
            let laptopSession = sessions[1].id
            await here.flow.endSession(id: laptopSession)
            #expect(here.flow.currentUpdate.errorInfo == nil, "\(here.flow.currentUpdate)")
            sessions = try #require(here.flow.currentUpdate.promptContext?.step.payload.manageAccount?.sessions)
            #expect(!sessions.map(\.id).contains(laptopSession))
            #expect(sessions.count == 2)
            #expect(here.flow.currentUpdate.promptContext?.step.messages.map(\.code).contains("sessionEnded") == true)
            await #expect(throws: (any Error).self) {
                _ = try await laptopClient.tokens.refresh(refreshToken: try #require(laptop.response.refreshToken))
            }
            #expect(try await harness.server.request("GET", "/v1/me", headers: laptopAuthorization).status == 401)
            #expect(try await harness.server.rowCount("sessions WHERE id = '\(laptopSession)' AND revoked_at IS NOT NULL") == 1)

            // Everywhere else: the tablet too; this device's tokens still work.
            await here.flow.perform(operation: "endOtherSessions")
            sessions = try #require(here.flow.currentUpdate.promptContext?.step.payload.manageAccount?.sessions)
            #expect(sessions.map(\.id) == [own])
            #expect(
                here.flow.currentUpdate.promptContext?.step.messages.map(\.code).contains("otherSessionsEnded") == true)
            guard case (_, let left)? = here.flow.currentUpdate.prompt?.manageAccount else {
                Issue.record("Expected account management, got \(here.flow.currentUpdate)")
                return
            }
            #expect(!left.map(\.name).contains("endSession"))
            await #expect(throws: (any Error).self) {
                _ = try await tabletClient.tokens.refresh(refreshToken: try #require(tablet.response.refreshToken))
            }
            let refreshed = try await here.tokens.refresh(refreshToken: try #require(mine.response.refreshToken))
            #expect(try await harness.server.request(
                "GET", "/v1/me", headers: ["Authorization": "Bearer \(refreshed.response.accessToken.revealed)"]).status == 200)
        }
    }

    /// A session signed out elsewhere (its refresh token revoked, RFC 7009) is not listed.
    @Test func aSessionSignedOutElsewhereIsNotListed() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let email = "listed@example.com"
            let (here, mine) = try await Self.signIn(harness, email: email)
            let (other, theirs) = try await Self.signIn(harness, email: email)
            await here.startAccountManagement(accessToken: mine.response.accessToken, identifier: email)
            #expect(here.flow.currentUpdate.promptContext?.step.payload.manageAccount?.sessions?.count == 2)
            await here.flow.cancel()

            try await other.tokens.revoke(token: try #require(theirs.response.refreshToken))
            await here.startAccountManagement(accessToken: mine.response.accessToken, identifier: email)
            let sessions = try #require(here.flow.currentUpdate.promptContext?.step.payload.manageAccount?.sessions)
            #expect(sessions.count == 1)
            #expect(sessions.first?.current == true)
            guard case (_, let operations)? = here.flow.currentUpdate.prompt?.manageAccount else {
                Issue.record("Expected account management, got \(here.flow.currentUpdate)")
                return
            }
            #expect(!operations.map(\.name).contains("endSession"))
            #expect(!operations.map(\.name).contains("endOtherSessions"))
        }
    }
}
