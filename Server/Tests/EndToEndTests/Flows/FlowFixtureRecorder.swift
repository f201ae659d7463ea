import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Records flows in flight for ``FlowUpgradeTests``: run once on a release, with
/// `KEYWAY_RECORD_FLOW_FIXTURES=flows-vN`, and commit the folder it writes under `Fixtures/`.
/// Drives the server only through the SDK and HTTP, so it records any release.
@Suite("Recording flows in flight for upgrade tests")
struct FlowFixtureRecorder {
    /// The fixture set to write, from the environment; the recorder does not run without it.
    static let target = ProcessInfo.processInfo.environment["KEYWAY_RECORD_FLOW_FIXTURES"]

    /// One application policy with every method and step: the upgrade tests set nothing else.
    static var policy: [String: Any] { [
        "primaryMethods": ["emailOtp", "password"], "mfaMethods": ["totp", "smsOtp", "deviceApproval"],
        "mfaMode": "optional", "flowTypes": ["signin", "signup", "accountManage"],
        "signup": [
            "requireInviteCode": true,
            "profileFields": [["name": "displayName", "kind": "text", "label": "Name", "required": true]],
        ],
        "devices": ["enabled": true, "approvalPollIntervalSeconds": 1, "approvalLifetimeSeconds": 600],
    ] }

    static let password = "correct horse battery staple"
    /// The recording's clock starts here, so the fixtures' times are stable.
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    /// Generous limits: many flows of few users from one address in a few minutes.
    static var limits: FlowLimits {
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerIdentifier = 100
        limits.rateLimits.codeSendsPerIdentifier = 100
        limits.rateLimits.codeChecksPerIdentifier = 100
        limits.rateLimits.passwordChecksPerIdentifier = 100
        return limits
    }

    /// A client: an SDK whose flows are resumable from `storage`, optionally with device trust.
    struct Client {
        let keyway: KeywayClient
        let storage: InMemorySecureStorage
    }

    static func client(_ server: TestServer, clock: ManualClock, deviceTrust: Bool = false) throws -> Client {
        let storage = InMemorySecureStorage()
        var options = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, resumableFlowStorage: storage)
        // The recording stops at the approval step; the upgrade test polls.
        options.autoPollApprovals = false
        if deviceTrust {
            options.deviceTrust = DeviceTrustOptions(
                appIdentifier: "com.example.shop", storage: storage, keyStore: SoftwareDeviceKeyStore(storage: storage),
                deviceName: "Recorded device")
        }
        return Client(
            keyway: try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: options), storage: storage)
    }

    @Test(.enabled(if: target != nil)) func recordFlowsInFlight() async throws {
        let name = try #require(Self.target)
        let clock = ManualClock(Self.start)
        let databasePath = TestServer.temporaryDatabase()
        var flows: [RecordedFlow] = []
        try await withTestServer(
            TestServer.start(database: .sqlite(path: databasePath), clock: clock, limits: Self.limits, adminToken: testAdminToken)
        ) { server in
            try await server.setPolicy(Self.policy)
            let recorder = Recorder(server: server, clock: clock)

            // Accounts: ann has a password and an authenticator; bob also a trusted device; carl
            // only a password.
            let annTotp = try await recorder.signUpWithAuthenticator("ann@example.com", deviceTrust: false).secret
            let bob = try await recorder.signUpWithAuthenticator("bob@example.com", deviceTrust: true)
            _ = try await recorder.signUp("carl@example.com")
            clock.advance(by: 31)

            func keep(_ name: String, _ identifier: String, _ client: Client, _ values: [String: String] = [:]) async throws {
                let kind = try #require(client.keyway.flow.currentUpdate.promptContext?.step.kind, "\(name) rests at a step")
                var storage: [String: String] = [:]
                for key in await client.storage.keys() {
                    storage[key] = try await client.storage.read(key: key)?.base64EncodedString()
                }
                #expect(storage["keyway.flow.\(TestServer.configId)"] != nil, "\(name) saved its flow")
                flows.append(
                    RecordedFlow(name: name, identifier: identifier, stepKind: kind.rawValue, storage: storage, values: values))
            }

            // Sign-in, primary choice.
            let primaryChoice = try Self.client(server, clock: clock)
            await primaryChoice.keyway.flow.start(identifier: "ann@example.com")
            try await keep("primaryChoice", "ann@example.com", primaryChoice, ["totpSecret": annTotp])

            // Sign-in, email code sent.
            let emailCode = try Self.client(server, clock: clock)
            await emailCode.keyway.flow.start(identifier: "ann@example.com")
            await emailCode.keyway.flow.selectMethod(id: "emailOtp")
            try await keep(
                "emailCode", "ann@example.com", emailCode,
                ["code": try await server.latestCode(to: "ann@example.com"), "totpSecret": annTotp])

            // Sign-in, password asked.
            let password = try Self.client(server, clock: clock)
            await password.keyway.flow.start(identifier: "ann@example.com")
            await password.keyway.flow.selectMethod(id: "password")
            try await keep("password", "ann@example.com", password, ["totpSecret": annTotp])

            // Sign-in, second factor choice (skippable) after the password.
            let secondFactor = try Self.client(server, clock: clock)
            await secondFactor.keyway.flow.start(identifier: "ann@example.com")
            await secondFactor.keyway.flow.selectMethod(id: "password")
            await secondFactor.keyway.flow.submitPassword(Self.password)
            try await keep("secondFactorChoice", "ann@example.com", secondFactor, ["totpSecret": annTotp])

            // Sign-in, authenticator code asked.
            let totp = try Self.client(server, clock: clock)
            await totp.keyway.flow.start(identifier: "ann@example.com")
            await totp.keyway.flow.selectMethod(id: "password")
            await totp.keyway.flow.submitPassword(Self.password)
            await totp.keyway.flow.selectMethod(id: "totp")
            try await keep("totp", "ann@example.com", totp, ["totpSecret": annTotp])

            // Sign-in, an authenticator being set up (its secret sealed in the flow).
            let setupTotp = try Self.client(server, clock: clock)
            await setupTotp.keyway.flow.start(identifier: "carl@example.com")
            await setupTotp.keyway.flow.selectMethod(id: "password")
            await setupTotp.keyway.flow.submitPassword(Self.password)
            await setupTotp.keyway.flow.selectMethod(id: "totp")
            try await keep("setupTotp", "carl@example.com", setupTotp)

            // Sign-in, a phone number being set up: its code sent.
            let setupSms = try Self.client(server, clock: clock)
            await setupSms.keyway.flow.start(identifier: "carl@example.com")
            await setupSms.keyway.flow.selectMethod(id: "password")
            await setupSms.keyway.flow.submitPassword(Self.password)
            await setupSms.keyway.flow.selectMethod(id: "smsOtp")
            await setupSms.keyway.flow.submitPhone("+14155550123")
            try await keep(
                "setupSmsCode", "carl@example.com", setupSms, ["code": try await server.latestCode(to: "+14155550123")])

            // Sign-up, at the profile form (the invitation sealed in the flow).
            let signUpForm = try Self.client(server, clock: clock)
            await signUpForm.keyway.flow.start(
                flowType: .signup, identifier: "dana@example.com", inviteCode: try await recorder.inviteCode())
            await signUpForm.keyway.flow.submitCode(try await server.latestCode(to: "dana@example.com"))
            try await keep("signUpForm", "dana@example.com", signUpForm)

            // Sign-up, at the password to choose (the form's answers kept in the flow).
            let signUpPassword = try Self.client(server, clock: clock)
            await signUpPassword.keyway.flow.start(
                flowType: .signup, identifier: "erin@example.com", inviteCode: try await recorder.inviteCode())
            await signUpPassword.keyway.flow.submitCode(try await server.latestCode(to: "erin@example.com"))
            await signUpPassword.keyway.flow.submitForm(["displayName": "Erin"])
            try await keep("signUpPassword", "erin@example.com", signUpPassword)

            // Sign-in on a new device, waiting for an approval the trusted device already gave.
            let approval = try Self.client(server, clock: clock)
            await approval.keyway.flow.start(identifier: "bob@example.com")
            await approval.keyway.flow.selectMethod(id: "emailOtp")
            await approval.keyway.flow.submitCode(try await server.latestCode(to: "bob@example.com"))
            await approval.keyway.flow.selectMethod(id: "deviceApproval")
            let pending = try await bob.client.keyway.pendingApprovals(for: "bob@example.com")
            try await bob.client.keyway.decide(try #require(pending.first), .approve, for: "bob@example.com")
            try await keep("approvalGiven", "bob@example.com", approval)

            // Account management, at the account's methods.
            let manage = try Self.client(server, clock: clock)
            await manage.keyway.startAccountManagement(
                accessToken: try await recorder.accessToken("ann@example.com", totpSecret: annTotp),
                identifier: "ann@example.com")
            try await keep("manageAccount", "ann@example.com", manage, ["totpSecret": annTotp])

            // Account management, a password change waiting for a fresh verification.
            let reverify = try Self.client(server, clock: clock)
            await reverify.keyway.startAccountManagement(
                accessToken: try await recorder.accessToken("ann@example.com", totpSecret: annTotp),
                identifier: "ann@example.com")
            await reverify.keyway.flow.perform(operation: "changePassword")
            try await keep("manageReverification", "ann@example.com", reverify, ["totpSecret": annTotp])
        }
        let folder = FlowFixtures.folder(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try await FlowFixtures.dumpDatabase(databasePath).write(
            to: folder.appendingPathComponent("database.sql"), atomically: true, encoding: .utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(FlowFixtureManifest(recordedAt: clock.now().timeIntervalSince1970, flows: flows))
            .write(to: folder.appendingPathComponent("manifest.json"))
    }

    /// Completed sign-ups and sign-ins that set up the recording's accounts.
    struct Recorder {
        let server: TestServer
        let clock: ManualClock

        func inviteCode() async throws -> String {
            let invite = try await server.admin("POST", "/admin/applications/\(TestServer.configId)/invite-codes")
            return try #require(invite.json["code"] as? String)
        }

        /// Signs up `email` with the password and skips the second factor.
        @discardableResult
        func signUp(_ email: String, deviceTrust: Bool = false) async throws -> Client {
            let client = try FlowFixtureRecorder.client(server, clock: clock, deviceTrust: deviceTrust)
            await client.keyway.flow.start(flowType: .signup, identifier: email, inviteCode: try await inviteCode())
            await client.keyway.flow.submitCode(try await server.latestCode(to: email))
            await client.keyway.flow.submitForm(["displayName": email])
            await client.keyway.flow.submitPassword(FlowFixtureRecorder.password)
            await client.keyway.flow.skip()
            try #require(client.keyway.flow.currentUpdate.completion != nil, "\(email) signed up")
            return client
        }

        /// Signs up `email`, then signs in setting up an authenticator (and trusting the device).
        func signUpWithAuthenticator(_ email: String, deviceTrust: Bool) async throws -> (client: Client, secret: String) {
            let client = try await signUp(email, deviceTrust: deviceTrust)
            await client.keyway.flow.start(identifier: email)
            await client.keyway.flow.selectMethod(id: "password")
            await client.keyway.flow.submitPassword(FlowFixtureRecorder.password)
            await client.keyway.flow.selectMethod(id: "totp")
            let secret = try #require(client.keyway.flow.currentUpdate.totpSetup?.secret)
            await client.keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: clock.now()))
            let done = try #require(client.keyway.flow.currentUpdate.completion, "\(email) set up an authenticator")
            if deviceTrust {
                #expect(await client.keyway.trustedDeviceID(for: email) != nil)
                _ = try await client.keyway.tokens.exchange(authCode: done.authCode, codeVerifier: try #require(done.codeVerifier))
            }
            clock.advance(by: 31)
            return (client, secret)
        }

        /// An access token of a fresh sign-in of `email` (password and authenticator).
        func accessToken(_ email: String, totpSecret: String) async throws -> Sensitive<String> {
            let client = try FlowFixtureRecorder.client(server, clock: clock)
            await client.keyway.flow.start(identifier: email)
            await client.keyway.flow.selectMethod(id: "password")
            await client.keyway.flow.submitPassword(FlowFixtureRecorder.password)
            await client.keyway.flow.selectMethod(id: "totp")
            await client.keyway.flow.submitTotp(TestAuthenticator.code(secret: totpSecret, at: clock.now()))
            clock.advance(by: 31)
            let done = try #require(client.keyway.flow.currentUpdate.completion, "\(email) signed in")
            let tokens = try await client.keyway.tokens.exchange(authCode: done.authCode, codeVerifier: try #require(done.codeVerifier))
            return tokens.response.accessToken
        }
    }
}
