import Crypto
import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Trusted devices: enrolment after MFA, skipping MFA, revocation and recovery")
struct TrustedDeviceTests {
    @Test func aDeviceEnrolledAfterMFASkipsTheSecondFactorNextTime() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let device = TestDevice()
            let keyway = try device.sdk(harness)
            _ = try await harness.signInSettingUpTotp(keyway, email: "dee@example.com")
            // The device was enrolled without a prompt: the flow went straight to its completion.
            let first = try await harness.tokens(keyway)
            #expect(first.idToken.authenticationMethods == ["otp", "mfa"])
            let deviceId = try #require(await keyway.trustedDeviceID(for: "dee@example.com"))
            #expect(deviceId.hasPrefix("dev_"))
            #expect(await keyway.trustedDeviceID(for: "DEE@example.com ") == deviceId)

            let listed = try await keyway.session(holding: first).trustedDevices()
            #expect(listed.map(\.id) == [deviceId])
            #expect(listed.first?.name == "Test device com.example.shop")
            #expect(listed.first?.hardwareBacked == false)
            #expect(listed.first?.lastUsedAt == nil)

            // The next sign-in proves the device instead of asking for the authenticator code.
            harness.clock.advance(by: 60)
            let seen = Collected<StepKind>()
            keyway.flow.onUpdate = { update in if let kind = update.stepKind { seen.append(kind) } }
            try await harness.signInWithCode(keyway, email: "dee@example.com")
            keyway.flow.onUpdate = nil
            let second = try await harness.tokens(keyway)
            #expect(second.idToken.authenticationMethods == ["otp", "swk", "mfa"])
            #expect(!seen.all.contains(.enterTotp) && !seen.all.contains(.deviceChallenge) && !seen.all.contains(.deviceEnroll))
            let used = try await keyway.session(holding: second).trustedDevices()
            #expect(used.first?.lastUsedAt != nil)
            // Sliding trust: 30 days from the last use.
            let until = try #require(used.first?.trustedUntil)
            #expect(abs(until.timeIntervalSince(harness.clock.now()) - 30 * 86_400) < 2)
        }
    }

    @Test func revokingFromAccountManagementFallsBackToMFAAndReEnrols() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let keyway = try TestDevice().sdk(harness)
            let secret = try await harness.signInSettingUpTotp(keyway, email: "rev@example.com")
            let tokens = try await harness.tokens(keyway)
            let deviceId = try #require(await keyway.trustedDeviceID(for: "rev@example.com"))

            // Account management lists the device and revokes it.
            await keyway.startAccountManagement(accessToken: tokens.response.accessToken, identifier: "rev@example.com")
            guard case (_, let operations)? = keyway.flow.currentUpdate.prompt?.manageAccount else {
                Issue.record("Expected account management, got \(keyway.flow.currentUpdate)")
                return
            }
            #expect(operations.map(\.name).contains("revokeDevice"))
            #expect(keyway.flow.currentUpdate.promptContext?.step.payload.manageAccount?.devices?.map(\.id) == [deviceId])
            await keyway.flow.revokeDevice(id: "dev_unknown")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidRequest)
            await keyway.flow.revokeDevice(id: deviceId)
            #expect(keyway.flow.currentUpdate.promptContext?.step.payload.manageAccount?.devices == [])
            #expect(keyway.flow.currentUpdate.promptContext?.messages.map(\.code).contains("deviceRevoked") == true)
            // Leaving keeps the tokens the app has: no new code without a fresh verification.
            await keyway.flow.cancel()

            // The next challenge is refused: the SDK forgets the key, the user enters the code, and
            // the device is enrolled again under a new ID, all without an error reaching the app.
            let errors = Collected<ProblemCode>()
            keyway.flow.onUpdate = { update in if let error = update.errorInfo { errors.append(error.code) } }
            let events = Collected<KeywayEvent.Name>()
            let listening = Task { for await event in keyway.events { events.append(event.name) } }
            defer { listening.cancel() }
            try await harness.signInWithCode(keyway, email: "rev@example.com")
            #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            #expect(await keyway.trustedDeviceID(for: "rev@example.com") == nil)
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            keyway.flow.onUpdate = nil
            #expect(errors.all.isEmpty)
            _ = try await harness.tokens(keyway)
            let again = try #require(await keyway.trustedDeviceID(for: "rev@example.com"))
            #expect(again != deviceId)
            try await waitUntil("both device events arrived") {
                events.all.filter { $0 == .deviceForgotten || $0 == .deviceTrusted }.count >= 2
            }
            #expect(events.all.filter { $0 == .deviceForgotten || $0 == .deviceTrusted } == [.deviceForgotten, .deviceTrusted])
        }
    }

    @Test func theAdminAPIListsAndRevokesDevices() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let keyway = try TestDevice().sdk(harness)
            let secret = try await harness.signInSettingUpTotp(keyway, email: "adm@example.com")
            let tokens = try await harness.tokens(keyway)
            let userId = tokens.idToken.subject
            let listed = try await harness.server.admin("GET", "/admin/users/\(userId)/devices")
            #expect(listed.status == 200)
            #expect((listed.json["devices"] as? [[String: Any]])?.count == 1)
            #expect(try await harness.server.admin("DELETE", "/admin/users/\(userId)/devices/dev_nope").status == 404)
            #expect(try await harness.server.admin("DELETE", "/admin/users/\(userId)/devices").status == 204)
            #expect((try await harness.server.admin("GET", "/admin/users/\(userId)/devices").json["devices"] as? [Any])?.count == 0)
            #expect(try await harness.server.admin("GET", "/admin/users/usr_nobody/devices").status == 404)

            try await harness.signInWithCode(keyway, email: "adm@example.com")
            #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            _ = try await harness.tokens(keyway)
            #expect(await keyway.trustedDeviceID(for: "adm@example.com") != nil)
        }
    }

    @Test func aMissingOrReplacedKeyFallsBackToMFAAndReEnrols() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let device = TestDevice()
            let keyway = try device.sdk(harness)
            let email = "lost@example.com"
            let secret = try await harness.signInSettingUpTotp(keyway, email: email)
            _ = try await harness.tokens(keyway)
            let first = try #require(await keyway.trustedDeviceID(for: email))
            let keyName = try #require(await device.storage.keys().first { $0.hasSuffix(".trust") })

            // The key is gone (restored backup, wiped keychain): no device is named, MFA, re-enrolment.
            try await device.keyStore.deleteKey(named: keyName)
            try await harness.signInWithCode(keyway, email: email)
            #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            _ = try await harness.tokens(keyway)
            let second = try #require(await keyway.trustedDeviceID(for: email))
            #expect(second != first)
            harness.clock.advance(by: 31)

            // The key was replaced by another one: the server refuses its signature, the SDK forgets
            // the device, MFA, re-enrolment.
            _ = try await device.keyStore.createKey(named: keyName)
            try await harness.signInWithCode(keyway, email: email)
            #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            #expect(keyway.flow.currentUpdate.promptContext?.messages.map(\.code).contains("deviceNotRecognized") == true)
            #expect(await keyway.trustedDeviceID(for: email) == nil)
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            _ = try await harness.tokens(keyway)
            let third = try #require(await keyway.trustedDeviceID(for: email))
            #expect(third != second)
        }
    }

    @Test func twoAppsAndTwoConfigIdsNeverShareADevice() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let device = TestDevice()
            let shop = try device.sdk(harness, app: "com.example.shop")
            let email = "two@example.com"
            let secret = try await harness.signInSettingUpTotp(shop, email: email)
            _ = try await harness.tokens(shop)
            #expect(await shop.trustedDeviceID(for: email) != nil)

            // Another app on the same device and storage has no device for the user: it asks for MFA.
            let other = try device.sdk(harness, app: "com.example.other")
            #expect(await other.trustedDeviceID(for: email) == nil)
            try await harness.signInWithCode(other, email: email)
            #expect(other.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            await other.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            _ = try await harness.tokens(other)
            harness.clock.advance(by: 31)
            let otherDevice = await other.trustedDeviceID(for: email)
            let shopDevice = await shop.trustedDeviceID(for: email)
            #expect(otherDevice != nil && otherDevice != shopDevice)

            // Another project (config ID) of the same app: nothing shared either.
            let created = try await harness.server.admin("POST", "/admin/applications", ["name": "Second project"])
            let secondConfig = try #require(created.json["configId"] as? String)
            let policy = try JSONSerialization.data(withJSONObject: AdaptiveHarness.deviceTrustPolicy)
            let saved = try await harness.server.request(
                "PUT", "/admin/applications/\(secondConfig)/policy",
                headers: ["Authorization": "Bearer \(testAdminToken)", "Content-Type": "application/json"], body: policy)
            #expect(saved.status == 200)
            let project = try device.sdk(harness, app: "com.example.shop", configId: secondConfig)
            #expect(await project.trustedDeviceID(for: email) == nil)
            await project.flow.start(flowType: .signin, identifier: email)
            await project.flow.submitCode(try await harness.server.latestCode(to: email))
            let prompt = project.flow.currentUpdate.prompt
            #expect(prompt == .enterTotp(digits: 6, purpose: .secondFactor) || project.flow.currentUpdate.totpSetup != nil)
            // Four distinct keys would exist by now at most; the two enrolled ones differ.
            let keys = await device.storage.keys().filter { $0.hasSuffix(".trust") }
            #expect(Set(keys).count == keys.count && keys.count == 2)
        }
    }

    @Test func elevatedRiskAsksForTheSecondFactorOnATrustedDevice() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let keyway = try TestDevice().sdk(harness)
            let email = "risky@example.com"
            let secret = try await harness.signInSettingUpTotp(keyway, email: email)
            _ = try await harness.tokens(keyway)
            let deviceId = try #require(await keyway.trustedDeviceID(for: email))

            // Three wrong codes flag the next sign-ins.
            for _ in 0..<3 {
                await keyway.flow.start(flowType: .signin, identifier: email)
                await keyway.flow.submitCode("000000")
            }
            try await harness.signInWithCode(keyway, email: email)
            #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            #expect(keyway.flow.currentUpdate.promptContext?.risk?.reasons.contains("recentFailures") == true)
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            _ = try await harness.tokens(keyway)
            // The device stays trusted, and no second device was enrolled.
            #expect(await keyway.trustedDeviceID(for: email) == deviceId)
        }
    }

    @Test func aTrustedDeviceAloneSignsInWhenThePolicySaysSo() async throws {
        var policy = AdaptiveHarness.deviceTrustPolicy
        policy["devices"] = ["enabled": true, "deviceAloneSignsIn": true]
        try await withTestServer(AdaptiveHarness.start(policy: policy)) { harness in
            let keyway = try TestDevice().sdk(harness)
            let email = "alone@example.com"
            _ = try await harness.signInSettingUpTotp(keyway, email: email)
            _ = try await harness.tokens(keyway)
            let sentBefore = try await harness.server.outbox(to: email).count

            await keyway.flow.start(flowType: .signin, identifier: email)
            let tokens = try await harness.tokens(keyway)
            #expect(tokens.idToken.authenticationMethods == ["swk"])
            #expect(try await harness.server.outbox(to: email).count == sentBefore)

            // Without the device, the primary method runs as usual.
            let stranger = try TestDevice().sdk(harness)
            await stranger.flow.start(flowType: .signin, identifier: email)
            #expect(stranger.flow.currentUpdate.enterCode != nil)
        }
    }

    @Test func theDeviceLimitEvictsTheOldestOrRefuses() async throws {
        var policy = AdaptiveHarness.deviceTrustPolicy
        policy["devices"] = ["enabled": true, "maximumDevices": 1, "whenFull": "refuse"]
        try await withTestServer(AdaptiveHarness.start(policy: policy)) { harness in
            let email = "full@example.com"
            let first = try TestDevice().sdk(harness)
            let secret = try await harness.signInSettingUpTotp(first, email: email)
            _ = try await harness.tokens(first)
            #expect(await first.trustedDeviceID(for: email) != nil)

            // Refused: the second device signs in but is not trusted, and keeps no key.
            let second = TestDevice()
            let secondSDK = try second.sdk(harness)
            try await harness.signInWithCode(secondSDK, email: email)
            await secondSDK.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            _ = try await harness.tokens(secondSDK)
            harness.clock.advance(by: 31)
            #expect(await secondSDK.trustedDeviceID(for: email) == nil)
            #expect(await second.storage.keys().filter { $0.hasSuffix(".trust") }.isEmpty)

            // Evicting: the new device is trusted and the first one is not any more.
            policy["devices"] = ["enabled": true, "maximumDevices": 1, "whenFull": "evictOldest"]
            try await harness.server.setPolicy(policy)
            try await harness.signInWithCode(secondSDK, email: email)
            await secondSDK.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            _ = try await harness.tokens(secondSDK)
            harness.clock.advance(by: 31)
            #expect(await secondSDK.trustedDeviceID(for: email) != nil)
            try await harness.signInWithCode(first, email: email)
            #expect(first.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
        }
    }

    @Test func anAbsoluteLifetimeEndsTrustEvenWhenUsed() async throws {
        var policy = AdaptiveHarness.deviceTrustPolicy
        policy["devices"] = ["enabled": true, "trustLifetimeDays": 1, "lifetimeMode": "absolute"]
        try await withTestServer(AdaptiveHarness.start(policy: policy)) { harness in
            let keyway = try TestDevice().sdk(harness)
            let email = "abs@example.com"
            let secret = try await harness.signInSettingUpTotp(keyway, email: email)
            _ = try await harness.tokens(keyway)
            harness.clock.advance(by: 12 * 3600)
            try await harness.signInWithCode(keyway, email: email)
            _ = try await harness.tokens(keyway)
            harness.clock.advance(by: 12 * 3600 + 60)
            try await harness.signInWithCode(keyway, email: email)
            #expect(keyway.flow.currentUpdate.prompt == .enterTotp(digits: 6, purpose: .secondFactor))
            await keyway.flow.submitTotp(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
            _ = try await harness.tokens(keyway)
        }
    }

    @Test func anAccessTokenOnlyListsAndRevokesItsOwnApplicationsDevices() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let email = "apps@example.com"
            let keyway = try TestDevice().sdk(harness)
            _ = try await harness.signInSettingUpTotp(keyway, email: email)
            let own = try await harness.tokens(keyway)
            let deviceId = try #require(await keyway.trustedDeviceID(for: email))

            // Another application of the same project (made from this one), same user.
            let registration = try await harness.server.app.issueRegistrationToken(templateConfigId: TestServer.configId)
            let registered = try await harness.server.request(
                "POST", "/oauth2/register",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(registration.revealed)"],
                body: try JSONSerialization.data(
                    withJSONObject: ["token_endpoint_auth_method": "none", "redirect_uris": ["com.example.other:/callback"]]))
            let otherConfig = try #require(
                (try JSONSerialization.jsonObject(with: registered.body) as? [String: Any])?["client_id"] as? String)
            // One of the project's own applications (a third party's token reaches no device at
            // all: ThirdPartyTokenTests).
            try await harness.server.execute("UPDATE applications SET first_party = 1 WHERE config_id = '\(otherConfig)'")
            let other = try KeywayClient(configID: otherConfig, baseURL: harness.server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: harness.clock))
            await other.flow.start(identifier: email)
            await other.flow.submitCode(try await harness.server.latestCode(to: email))
            let foreign = try await harness.tokens(other)
            #expect(foreign.idToken.subject == own.idToken.subject)

            #expect(try await other.session(holding: foreign).trustedDevices().isEmpty)
            do {
                try await other.session(holding: foreign).revokeTrustedDevice(id: deviceId)
                Issue.record("A token of another application revoked the device.")
            } catch KeywayError.problem(let problem) {
                #expect(problem.code == .notFound)
            }
            try await other.session(holding: foreign).revokeAllTrustedDevices()
            #expect(try await keyway.session(holding: own).trustedDevices().map(\.id) == [deviceId])
            try await keyway.session(holding: own).revokeTrustedDevice(id: deviceId)
            #expect(try await keyway.session(holding: own).trustedDevices().isEmpty)
        }
    }

    @Test func aRefusedEnrolmentCompletesTheSignInWithoutTrustingTheDevice() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: AdaptiveHarness.deviceTrustPolicy)) { harness in
            let storage = InMemorySecureStorage()
            var options = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: harness.clock)
            options.deviceTrust = DeviceTrustOptions(
                appIdentifier: "com.example.shop", storage: storage, keyStore: MismatchedKeyStore(), deviceName: "Broken")
            let keyway = try KeywayClient(configID: TestServer.configId, baseURL: harness.server.baseURL, options: options)
            let errors = Collected<ProblemCode>()
            keyway.flow.onUpdate = { update in if let error = update.errorInfo { errors.append(error.code) } }
            _ = try await harness.signInSettingUpTotp(keyway, email: "broken@example.com")
            keyway.flow.onUpdate = nil
            let tokens = try await harness.tokens(keyway)
            #expect(errors.all.isEmpty)
            #expect(await keyway.trustedDeviceID(for: "broken@example.com") == nil)
            #expect(try await keyway.session(holding: tokens).trustedDevices().isEmpty)
        }
    }
}

/// A key store whose keys sign with another key than the public one they show.
struct MismatchedKeyStore: DeviceKeyStore {
    struct Key: DeviceKey {
        let shown = P256.Signing.PrivateKey()
        let signer = P256.Signing.PrivateKey()
        var publicKey: P256.Signing.PublicKey { shown.publicKey }
        func signature(for data: Data) throws -> P256.Signing.ECDSASignature { try signer.signature(for: data) }
    }

    var isHardwareBacked: Bool { false }
    func key(named name: String) async throws -> (any DeviceKey)? { nil }
    func createKey(named name: String) async throws -> any DeviceKey { Key() }
    func deleteKey(named name: String) async throws {}
}
