import Foundation
@testable import Keyway
import KeywayServer
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Sign-up, account management and start tokens")
struct SignUpAndAccountTests {
    @Test func signUpWithInviteCodeProfileFormAndTermsThenTheCodeIsUsedUp() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "signup"],
            "signup": [
                "requireInviteCode": true, "termsOfServiceURL": "https://example.com/terms",
                "profileFields": [
                    ["name": "displayName", "kind": "text", "label": "Name", "required": true],
                    [
                        "name": "plan", "kind": "select", "label": "Plan", "required": true,
                        "options": ["free", "team"],
                    ],
                ],
            ],
        ])) { harness in
            let server = harness.server
            let invite = try await server.admin("POST", "/admin/applications/\(TestServer.configId)/invite-codes")
            #expect(invite.status == 201)
            let code = try #require(invite.json["code"] as? String)
            let keyway = try harness.sdk()

            // Without the code, and with a wrong one: retryInput on the inviteCode field.
            await keyway.flow.start(flowType: .signup, identifier: "new@example.com")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidInviteCode)
            #expect(keyway.flow.currentUpdate.errorInfo?.action == .retryInput)
            await keyway.flow.start(flowType: .signup, identifier: "new@example.com", inviteCode: "not-the-code")
            #expect(keyway.flow.currentUpdate.errorInfo?.details?.invalidFields?.first?.name == "inviteCode")

            await keyway.flow.start(flowType: .signup, identifier: "new@example.com", inviteCode: code)
            await keyway.flow.submitCode(try await server.latestCode(to: "new@example.com"))
            guard case (let formId, _, let fields)? = keyway.flow.currentUpdate.prompt?.form else {
                throw TestFailure("Expected the sign-up form, got \(keyway.flow.currentUpdate)")
            }
            #expect(formId == "profile")
            #expect(fields.map(\.name) == ["displayName", "plan", "acceptTerms"])
            #expect(fields.map(\.type) == [.text, .select, .checkbox])
            // The server checks every field and answers per field.
            let form = try #require(await keyway.flow.currentStep?.action(named: "submitForm"))
            await keyway.flow.submit(action: form, parameters: ["displayName": "Ada", "plan": "gold", "acceptTerms": "false"])
            let invalid = try #require(keyway.flow.currentUpdate.errorInfo?.details?.invalidFields)
            #expect(Set(invalid.map(\.name)) == ["plan", "acceptTerms"])
            #expect(try await server.rowCount("users") == 0)
            await keyway.flow.submitForm(["displayName": "Ada", "plan": "team", "acceptTerms": "true"])
            let created = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: created.authCode, codeVerifier: try #require(created.codeVerifier))
            #expect(tokens.idToken.email == "new@example.com")
            #expect(try await server.rowCount("users") == 1)
            #expect(try await server.rowCount("user_profiles WHERE data LIKE '%Ada%'") == 1)

            // The code is single use.
            await keyway.flow.start(flowType: .signup, identifier: "second@example.com", inviteCode: code)
            let used = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(used.code == .inviteCodeUsed)
            #expect(used.action == .abort)
        }
    }

    @Test func signingUpAKnownIdentifierIsASignInNeverASecondAccount() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "signup"],
        ])) { harness in
            let keyway = try harness.sdk()
            for _ in 0..<2 {
                await keyway.flow.start(flowType: .signup, identifier: "twice@example.com")
                #expect(keyway.flow.currentUpdate.enterCode != nil)
                await keyway.flow.submitCode(try await harness.server.latestCode(to: "twice@example.com"))
                #expect(keyway.flow.currentUpdate.completion != nil)
            }
            #expect(try await harness.server.rowCount("users") == 1)
        }
    }

    @Test func smsSetupRefusesAnInvalidPhoneThenVerifiesAValidOneAndAccountManagementRemovesIt() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["smsOtp", "totp"], "mfaMode": "required",
            "flowTypes": ["signin", "accountManage"],
        ])) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signin, identifier: "sms@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "sms@example.com"))
            let enrol = try #require(keyway.flow.currentUpdate.methodChoice)
            #expect(enrol.purpose == .enrolment)
            #expect(!enrol.skippable)
            #expect(Set(enrol.methods.map(\.type)) == [.smsOtp, .totp])
            await keyway.flow.selectMethod(id: "smsOtp")
            #expect(keyway.flow.currentUpdate.prompt == .setupSms(existingPhone: nil))
            await keyway.flow.submitPhone("555-0199")
            let invalid = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(invalid.action == .retryInput)
            #expect(invalid.details?.invalidFields?.first?.name == "phone")
            await keyway.flow.submitPhone("+44 20 7946 0991")
            #expect(keyway.flow.currentUpdate.enterCode?.channel == .sms)
            #expect(keyway.flow.currentUpdate.enterCode?.destination == "+4•••••••••91")
            await keyway.flow.submitCode(try await server.latestCode(to: "+442079460991"))
            let first = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: first.authCode, codeVerifier: try #require(first.codeVerifier))
            #expect(tokens.idToken.authenticationMethods == ["otp", "sms", "mfa"])

            // Account management: add an authenticator (no re-verification for adding), then remove
            // the phone (re-verification first, by the authenticator or the phone).
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            try await session.save(tokens)
            try await session.manageAccount()
            guard case (let methods, let operations)? = keyway.flow.currentUpdate.prompt?.manageAccount else {
                throw TestFailure("Expected the account overview, got \(keyway.flow.currentUpdate)")
            }
            #expect(methods.map(\.type) == [.emailOtp, .smsOtp])
            #expect(operations.map(\.name).contains("removeSms"))
            await keyway.flow.perform(operation: "setupTotp")
            let secret = try #require(keyway.flow.currentUpdate.totpSetup).secret
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            await keyway.flow.perform(operation: "removeSms")
            let verify = try #require(keyway.flow.currentUpdate.methodChoice)
            #expect(verify.purpose == .reverification)
            #expect(keyway.flow.currentUpdate.promptContext?.stepInfo?.label == "Verify your identity")
            await keyway.flow.selectMethod(id: "emailOtp")
            await keyway.flow.submitCode(try await server.latestCode(to: "sms@example.com"))
            guard case (let after, _)? = keyway.flow.currentUpdate.prompt?.manageAccount else {
                throw TestFailure("Expected the account overview, got \(keyway.flow.currentUpdate)")
            }
            #expect(after.map(\.type) == [.emailOtp, .totp])
            #expect(keyway.flow.currentUpdate.promptContext?.messages.contains { $0.code == "smsRemoved" } == true)
            // The authenticator is now the last second factor of a required-MFA policy: it stays.
            await keyway.flow.perform(operation: "removeTotp")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidStep)
            await keyway.flow.perform(operation: "finish")
            #expect(keyway.flow.currentUpdate.completion?.session == first.session)
            #expect(try await server.rowCount("users WHERE phone IS NULL AND totp_secret IS NOT NULL") == 1)
        }
    }

    @Test func changingThePasswordNeedsAFreshVerificationAndAStrongPassword() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp", "password"], "flowTypes": ["signin", "signup", "accountManage"],
        ])) { harness in
            let keyway = try harness.sdk()
            try await harness.signUp(keyway, email: "change@example.com", password: "first-passphrase-1")
            let created = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: created.authCode, codeVerifier: try #require(created.codeVerifier))
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            try await session.save(tokens)

            try await session.manageAccount()
            guard case (let methods, let operations)? = keyway.flow.currentUpdate.prompt?.manageAccount else {
                throw TestFailure("Expected the account overview, got \(keyway.flow.currentUpdate)")
            }
            #expect(methods.map(\.type) == [.emailOtp, .password])
            #expect(operations.map(\.name).contains("changePassword"))
            await keyway.flow.perform(operation: "changePassword")
            // Proving who you are first: the email code or the current password.
            let verify = try #require(keyway.flow.currentUpdate.methodChoice)
            #expect(verify.purpose == .reverification)
            #expect(verify.methods.map(\.type) == [.emailOtp, .password])
            await keyway.flow.selectMethod(id: "password")
            await keyway.flow.submitPassword("not-the-password")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidCredentials)
            await keyway.flow.submitPassword("first-passphrase-1")
            #expect(keyway.flow.currentUpdate.prompt == .enterPassword(purpose: .change, minimumLength: 10))
            await keyway.flow.submitPassword("qwertyuiop")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .weakPassword)
            await keyway.flow.submitPassword("second-passphrase-2")
            #expect(keyway.flow.currentUpdate.promptContext?.messages.contains { $0.code == "passwordChanged" } == true)
            await keyway.flow.perform(operation: "finish")
            #expect(keyway.flow.currentUpdate.completion != nil)

            // Only the new password signs in now.
            for (password, works) in [("first-passphrase-1", false), ("second-passphrase-2", true)] {
                await keyway.flow.start(flowType: .signin, identifier: "change@example.com")
                await keyway.flow.selectMethod(id: "password")
                await keyway.flow.submitPassword(password)
                #expect((keyway.flow.currentUpdate.completion != nil) == works)
            }
        }
    }

    @Test func aStartTokenPicksTheFlowAndIdentifierOnce() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: ["primaryMethods": ["emailOtp"], "flowTypes": ["signin"]])) { harness in
            let issued = try await harness.server.admin(
                "POST", "/admin/applications/\(TestServer.configId)/start-tokens",
                ["flowType": "signin", "identifier": "started@example.com"])
            #expect(issued.status == 201)
            let token = try #require(issued.json["startToken"] as? String)
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signin, identifier: "ignored@example.com", startToken: token)
            #expect(keyway.flow.currentUpdate.enterCode?.destination == "s•••@example.com")
            await keyway.flow.start(flowType: .signin, identifier: "ignored@example.com", startToken: token)
            let reused = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(reused.code == .invalidStartToken)
            #expect(reused.action == .restartFlow)
        }
    }

    @Test func aStartRefusedBeforeTheFlowExistsLeavesTheStartTokenUsable() async throws {
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerIdentifier = 1
        limits.rateLimits.window = 10  // shorter than the start token's lifetime
        try await withTestServer(AdaptiveHarness.start(
            policy: ["primaryMethods": ["emailOtp"], "flowTypes": ["signin"]], limits: limits)) { harness in
            let issued = try await harness.server.admin(
                "POST", "/admin/applications/\(TestServer.configId)/start-tokens",
                ["flowType": "signin", "identifier": "kept@example.com"])
            let token = try #require(issued.json["startToken"] as? String)

            // A malformed request is refused before any flow exists.
            let malformed = try await harness.server.request(
                "POST", "/v1/flows", headers: ["Content-Type": "application/json", "X-Keyway-Config-Id": TestServer.configId],
                body: try JSONSerialization.data(withJSONObject: [
                    "flowType": "signin", "identifier": "x@example.com", "codeChallenge": "short",
                    "codeChallengeMethod": "S256", "startToken": token,
                ]))
            #expect(malformed.status == 400)

            // A rate limit inside the flow's transaction rolls the token's use back too.
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signin, identifier: "kept@example.com")
            #expect(keyway.flow.currentUpdate.enterCode != nil)
            await keyway.flow.start(flowType: .signin, identifier: "ignored@example.com", startToken: token)
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .rateLimited)

            // Once the window passed, the token still starts its flow, once.
            harness.clock.advance(by: limits.rateLimits.window + 1)
            await keyway.flow.start(flowType: .signin, identifier: "ignored@example.com", startToken: token)
            #expect(keyway.flow.currentUpdate.enterCode?.destination == "k•••@example.com")
            await keyway.flow.start(flowType: .signin, identifier: "ignored@example.com", startToken: token)
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidStartToken)
        }
    }

    @Test func accountManagementNeedsAValidAccessToken() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "accountManage"],
        ])) { harness in
            let keyway = try harness.sdk()
            await keyway.startAccountManagement(accessToken: Sensitive("not-a-token"), identifier: "x@example.com")
            let refused = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(refused.code == .invalidAccessToken)
            #expect(refused.action == .abort)
        }
    }
}
