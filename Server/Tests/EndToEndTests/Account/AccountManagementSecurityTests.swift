import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// An access token opens account management, but does not by itself mint new credentials: the
/// flow is tied to the token's application, its code needs a fresh verification, and it is never
/// redeemed for more than the token's scope.
@Suite("Account management cannot turn an access token into new credentials")
struct AccountManagementSecurityTests {
    static var policy: [String: Any] { ["primaryMethods": ["emailOtp"], "flowTypes": ["signin", "accountManage"]] }

    @Test func aTokenOfAnotherApplicationCannotOpenIt() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signin, identifier: "owner@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "owner@example.com"))
            let tokens = try await harness.tokens(keyway)

            // Another public application of the same project, with account management allowed.
            let other = try await server.app.register(ApplicationRegistration(name: "Other app", clientType: .public))
            let policySet = try await server.request(
                "PUT", "/admin/applications/\(other.configId)/policy",
                headers: ["Authorization": "Bearer \(testAdminToken)", "Content-Type": "application/json"],
                body: try JSONSerialization.data(withJSONObject: Self.policy))
            #expect(policySet.status == 200)
            let elsewhere = try KeywayClient(
                configID: other.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: harness.clock))
            await elsewhere.startAccountManagement(accessToken: tokens.response.accessToken, identifier: "owner@example.com")
            let refused = try #require(elsewhere.flow.currentUpdate.errorInfo)
            #expect(refused.code == .invalidAccessToken)
            #expect(refused.details?.detail.contains("another application") == true)
            #expect(try await server.rowCount("flows WHERE flow_type = 'accountManage'") == 0)
        }
    }

    @Test func finishingNeedsAFreshVerificationAndNeverWidensTheScope() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let server = harness.server
            // A narrow token: exchanged from a trusted issuer's token for `openid` only.
            let external = try ExternalIssuer()
            try await server.app.trustIssuer(external.trusted)
            let subjectToken = try external.es256(
                external.claims(subject: "narrow-1", email: "narrow@example.com", now: harness.clock.now()))
            var form = TokenExchangeTests().exchangeForm(subjectToken)
            form["scope"] = "openid"
            let exchanged = try await server.token(form)
            #expect(exchanged.status == 200, "\(exchanged.json)")
            #expect(exchanged.json["scope"] as? String == "openid")
            let accessToken = try #require(exchanged.json["access_token"] as? String)

            let keyway = try harness.sdk()
            await keyway.startAccountManagement(accessToken: Sensitive(accessToken), identifier: "narrow@example.com")
            guard case _? = keyway.flow.currentUpdate.prompt?.manageAccount else {
                throw TestFailure("Expected account management, got \(keyway.flow.currentUpdate)")
            }
            // The token alone does not finish: the user proves who they are first.
            await keyway.flow.perform(operation: "finish")
            #expect(keyway.flow.currentUpdate.completion == nil)
            #expect(keyway.flow.currentUpdate.enterCode != nil || keyway.flow.currentUpdate.methodChoice != nil)
            #expect(try await server.rowCount("authorization_codes") == 0)
            if keyway.flow.currentUpdate.methodChoice != nil { await keyway.flow.selectMethod(id: "emailOtp") }
            await keyway.flow.submitCode(try await server.latestCode(to: "narrow@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let redeemed = try await keyway.tokens.exchange(
                authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            // No more than the token that opened the flow had: no offline access, no refresh token.
            #expect(redeemed.response.scope == "openid")
            #expect(redeemed.response.refreshToken == nil)
            #expect(try await server.rowCount("refresh_tokens") == 0)
        }
    }
}
