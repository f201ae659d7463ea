import Crypto
import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("PowerAuth activation: by code, by a Keyway sign-in, by recovery code, and the status after each step")
struct PowerAuthActivationTests {
    @Test func anActivationEnvelopeIsAcceptedOnce() async throws {
        try await PowerAuthFixture.run { fixture in
            let device = fixture.device()
            let request = try await device.activationRequest(type: "CUSTOM", identity: ["accessToken": fixture.accessToken])
            let first = try await device.post("/pa/v3/activation/create", headers: device.encryptionHeader(), body: request.body)
            #expect(first.status == 200, "\(first.json)")
            // The same envelope again, within its five minutes: refused, and no second activation.
            for _ in 0..<3 {
                let again = try await device.post("/pa/v3/activation/create", headers: device.encryptionHeader(), body: request.body)
                #expect(again.status == 400 && again.errorCode == "ERR_ENCRYPTION", "\(again.json)")
            }
            #expect(try await fixture.server.rowCount("powerauth_activations") == 1)
        }
    }

    /// `POST /pa/v3/status`, which the 1.9 mobile SDKs call before an activation's status to
    /// correct their clock: the server's time in milliseconds, without a body or credentials.
    @Test func theServerStatusGivesTheServersTime() async throws {
        try await PowerAuthFixture.run { fixture in
            fixture.clock.advance(by: 1_234.5)
            let answer = try await fixture.server.request("POST", "/pa/v3/status")
            #expect(answer.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
            #expect(json["status"] as? String == "OK")
            let object = try #require(json["responseObject"] as? [String: Any])
            let serverTime = try #require(object["serverTime"] as? Int64)
            #expect(serverTime == Int64((fixture.clock.now().timeIntervalSince1970 * 1000).rounded(.down)))
            #expect((object["application"] as? [String: Any])?["name"] as? String == "keyway-server")
            // As the reference answers it: a body, if one is sent, is not read.
            let withBody = try await fixture.server.request(
                "POST", "/pa/v3/status", headers: ["Content-Type": "application/json"], body: Data(#"{"requestObject":{}}"#.utf8))
            #expect(withBody.status == 200)
        }
    }

    /// `POST /pa/v3/user/info` (the RESTful integration's `UserInfoController`): sealed in
    /// activation scope, answered with the activation's user as `sub`; another activation's ID,
    /// an application-scope key or a removed activation get no answer to open.
    @Test func theUserInfoIsSealedForTheActivationsDevice() async throws {
        try await PowerAuthFixture.run { fixture in
            let device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            func ask(
                activationId: String, activationScopeKey: Bool = true,
                key given: (id: String, publicKey: P256.KeyAgreement.PublicKey)? = nil
            ) async throws -> (PowerAuthAnswer, EciesContext) {
                let key: (id: String, publicKey: P256.KeyAgreement.PublicKey)
                if let given { key = given } else { key = try await device.temporaryKey(activationScope: activationScopeKey) }
                let sealed = try device.seal(Data("{}".utf8), key: key, sharedInfo1: .activationScopeGeneric, activationScope: true)
                let header =
                    "PowerAuth version=\"3.3\", application_key=\"\(fixture.application.applicationKey)\", activation_id=\"\(activationId)\""
                let answer = try await device.post(
                    "/pa/v3/user/info", headers: ["X-PowerAuth-Encryption": header],
                    body: try JSONSerialization.data(withJSONObject: sealed.body))
                return (answer, sealed.context)
            }
            let (answer, context) = try await ask(activationId: activationId)
            #expect(answer.status == 200, "\(answer.json)")
            let claims = try JSONSerialization.jsonObject(with: try PowerAuthTestDevice.open(answer.json, with: context)) as? [String: Any]
            #expect(claims?["sub"] as? String == fixture.userId)
            #expect(claims?.count == 1)

            let unknown = try await ask(activationId: "00000000-0000-0000-0000-000000000000").0
            #expect(unknown.status == 400 && unknown.errorCode == "ERR_ENCRYPTION")
            let applicationKey = try await ask(activationId: activationId, activationScopeKey: false).0
            #expect(applicationKey.status == 400 && applicationKey.errorCode == "ERR_ENCRYPTION")
            let keyBeforeRemoval = try await device.temporaryKey(activationScope: true)
            #expect(try await fixture.admin("DELETE", "/admin/activations/\(activationId)").status == 200)
            #expect(try await ask(activationId: activationId, key: keyBeforeRemoval).0.errorCode == "ERR_ENCRYPTION")
        }
    }

    @Test func activationByCodeCommittedAutomatically() async throws {
        try await PowerAuthFixture.run { fixture in
            let (activationId, code) = try await fixture.activationCode()
            #expect(try await fixture.listed(activationId)?["status"] as? String == "CREATED")
            var device = fixture.device()
            let answer = try await device.activate(type: "CODE", identity: ["code": code])
            #expect(answer.status == 200, "\(answer.json)")
            #expect(device.activationId == activationId)
            #expect(device.recovery != nil)

            let blob = try await device.status()
            #expect(blob.state == .active)
            #expect(blob.currentVersion == 3 && blob.upgradeVersion == 3)
            #expect(blob.failedAttempts == 0 && blob.maxFailedAttempts == 5 && blob.counterLookAhead == 20)
            #expect(try device.counterDistance(blob) == 0)
            let listed = try #require(try await fixture.listed(activationId))
            #expect(listed["status"] as? String == "ACTIVE")
            #expect(listed["fingerprint"] as? String == device.fingerprint)
            #expect(listed["platform"] as? String == "ios" && listed["deviceInfo"] as? String == "iPhone15,2")
            #expect(listed["configId"] as? String == TestServer.configId)

            // The code is used up.
            var second = fixture.device()
            let again = try await second.activate(type: "CODE", identity: ["code": code])
            #expect(again.status == 400 && again.errorCode == "ERR_ACTIVATION")
        }
    }

    @Test func anIndependentPythonDeviceActivatesReadsItsStatusAndSigns() async throws {
        try await PowerAuthFixture.run { fixture in
            let (activationId, code) = try await fixture.activationCode()
            let settings = try await fixture.admin("GET", "/admin/applications/\(TestServer.configId)/powerauth")
            var input = settings.json
            input["activationCode"] = code
            let (status, output) = try await PythonScript.run(
                "powerauth_device.py", ["--base-url", fixture.server.baseURL.absoluteString],
                input: try JSONSerialization.data(withJSONObject: input))
            #expect(status == 0, "powerauth_device.py: \(output)")
            #expect(output.contains("activated \(activationId) recovery=True"))
            #expect(output.contains("status state=3 failed=0 max=5 lookAhead=20 inStep=True"))
            #expect(output.contains("signature verified; counter byte=1 inStep=True"))
            #expect(try await fixture.listed(activationId)?["status"] as? String == "ACTIVE")
        }
    }

    @Test func activationByCodeWithOTPAndConfirmation() async throws {
        try await PowerAuthFixture.run { fixture in
            let (activationId, code) = try await fixture.activationCode(["otp": "246810", "commit": "confirm", "name": "Work phone"])
            var device = fixture.device()
            #expect(try await device.activate(type: "CODE", identity: ["code": code]).status == 200)
            var blob = try await device.status()
            #expect(blob.state == .pendingCommit)
            #expect(try await fixture.listed(activationId)?["status"] as? String == "PENDING_COMMIT")
            // Signatures need an active activation.
            #expect(try await device.validate([.possession, .knowledge]).status == 401)

            let wrong = try await fixture.admin("POST", "/admin/activations/\(activationId)/commit", ["otp": "000000"])
            #expect(wrong.status == 400 && wrong.json["code"] as? String == "activation_otp_invalid")
            let missing = try await fixture.admin("POST", "/admin/activations/\(activationId)/commit")
            #expect(missing.status == 400)
            let committed = try await fixture.admin("POST", "/admin/activations/\(activationId)/commit", ["otp": "246810"])
            #expect(committed.status == 200 && committed.json["status"] as? String == "ACTIVE", "\(committed.json)")
            blob = try await device.status()
            #expect(blob.state == .active)
            let again = try await fixture.admin("POST", "/admin/activations/\(activationId)/commit", ["otp": "246810"])
            #expect(again.status == 409 && again.json["code"] as? String == "activation_state_conflict")
        }
    }

    @Test func anAutomaticCodeWithAnOTPNeedsItAtTheKeyExchangeAndDiesAfterFiveWrongOnes() async throws {
        try await PowerAuthFixture.run { fixture in
            let (_, code) = try await fixture.activationCode(["otp": "135790"])
            var device = fixture.device()
            let wrong = try await device.activate(type: "CODE", identity: ["code": code], otp: "000000")
            #expect(wrong.status == 400 && wrong.errorCode == "ERR_ACTIVATION")
            let right = try await device.activate(type: "CODE", identity: ["code": code], otp: "135790")
            #expect(right.status == 200)
            #expect(try await device.status().state == .active)

            let (dying, dyingCode) = try await fixture.activationCode(["otp": "135790"])
            var other = fixture.device()
            for _ in 0..<5 {
                #expect(try await other.activate(type: "CODE", identity: ["code": dyingCode], otp: "111111").status == 400)
            }
            #expect(try await other.activate(type: "CODE", identity: ["code": dyingCode], otp: "135790").status == 400)
            #expect(try await fixture.listed(dying)?["status"] as? String == "REMOVED")
        }
    }

    @Test func temporaryKeysExpireAfterFiveMinutesAndKeepToTheirScope() async throws {
        try await PowerAuthFixture.run { fixture in
            let (_, code) = try await fixture.activationCode(["expiresIn": 3600])
            var device = fixture.device()
            let stale = try await device.activationRequest(type: "CODE", identity: ["code": code])
            fixture.clock.advance(by: 301)
            let refused = try await device.post("/pa/v3/activation/create", headers: device.encryptionHeader(), body: stale.body)
            #expect(refused.status == 400 && refused.errorCode == "ERR_ENCRYPTION")
            #expect(try await device.activate(type: "CODE", identity: ["code": code]).status == 200)

            // A key of the activation's scope does not open an application-scope request.
            let scoped = try await device.temporaryKey(activationScope: true)
            let sealed = try device.seal(Data("{}".utf8), key: scoped, sharedInfo1: .applicationScopeGeneric, activationScope: false)
            let wrongScope = try await device.post(
                "/pa/v3/activation/create", headers: device.encryptionHeader(),
                body: try JSONSerialization.data(withJSONObject: sealed.body))
            #expect(wrongScope.status == 400 && wrongScope.errorCode == "ERR_ENCRYPTION")
        }
    }

    @Test func anExpiredCodeIsRefused() async throws {
        try await PowerAuthFixture.run { fixture in
            let (_, code) = try await fixture.activationCode(["expiresIn": 60])
            fixture.clock.advance(by: 61)
            var device = fixture.device()
            let answer = try await device.activate(type: "CODE", identity: ["code": code])
            #expect(answer.status == 400 && answer.errorCode == "ERR_ACTIVATION")
        }
    }

    /// A device's credentials are the account's: a token of a third-party application (one not
    /// made by the project's administrators) activates nothing.
    @Test func aThirdPartyApplicationsTokenActivatesNoDevice() async throws {
        try await PowerAuthFixture.run { fixture in
            try await fixture.server.execute("UPDATE applications SET first_party = 0 WHERE config_id = '\(TestServer.configId)'")
            var refused = fixture.device()
            let answer = try await refused.activate(type: "CUSTOM", identity: ["accessToken": fixture.accessToken])
            #expect(answer.status == 400 && answer.errorCode == "ERR_ACTIVATION", "\(answer.json)")
            #expect(try await fixture.server.rowCount("powerauth_activations") == 0)
            // The same token, its application the project's own again: the device activates.
            try await fixture.server.execute("UPDATE applications SET first_party = 1 WHERE config_id = '\(TestServer.configId)'")
            var device = fixture.device()
            #expect(try await device.activate(type: "CUSTOM", identity: ["accessToken": fixture.accessToken]).status == 200)
        }
    }

    @Test func activationByAccessToken() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = fixture.device()
            let answer = try await device.activate(type: "CUSTOM", identity: ["accessToken": fixture.accessToken])
            #expect(answer.status == 200, "\(answer.json)")
            #expect(try await device.status().state == .active)
            let activationId = try #require(device.activationId)
            let listed = try #require(try await fixture.listed(activationId))
            #expect(listed["status"] as? String == "ACTIVE")

            var forged = fixture.device()
            let refused = try await forged.activate(type: "CUSTOM", identity: ["accessToken": fixture.accessToken + "x"])
            #expect(refused.status == 400 && refused.errorCode == "ERR_ACTIVATION")
            // After signing out everywhere the token no longer activates.
            let signOut = try await fixture.server.request(
                "DELETE", "/v1/me/sessions", headers: ["Authorization": "Bearer \(fixture.accessToken)"])
            #expect(signOut.status == 204)
            var late = fixture.device()
            #expect(try await late.activate(type: "CUSTOM", identity: ["accessToken": fixture.accessToken]).status == 400)
        }
    }

    @Test func aDPoPBoundAccessTokenNeedsAProofOfTheActivationRequestByItsKey() async throws {
        try await PowerAuthFixture.run { fixture in
            let key = P256.Signing.PrivateKey()
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: fixture.server.baseURL,
                options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: fixture.clock, dpopKey: key))
            await keyway.flow.start(identifier: "device-owner@example.com")
            await keyway.flow.submitCode(try await fixture.server.latestCode(to: "device-owner@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            #expect(tokens.response.tokenType == "DPoP")
            let token = tokens.response.accessToken.revealed
            let url = fixture.server.baseURL.appendingPathComponent("pa/v3/activation/create")
            func proof(_ key: P256.Signing.PrivateKey, url: URL) throws -> String {
                try DPoP.proof(key: key, method: "POST", url: url, issuedAt: fixture.clock.now(), nonce: nil, accessToken: token, jti: UUID().uuidString)
            }
            let refusals: [[String: String]] = [
                [:], ["DPoP": try proof(P256.Signing.PrivateKey(), url: url)],
                ["DPoP": try proof(key, url: fixture.server.baseURL.appendingPathComponent("oauth2/userinfo"))],
            ]
            for headers in refusals {
                var device = fixture.device()
                let refused = try await device.activate(type: "CUSTOM", identity: ["accessToken": token], extraHeaders: headers)
                #expect(refused.status == 400 && refused.errorCode == "ERR_ACTIVATION", "\(headers.keys): \(refused.json)")
            }
            var device = fixture.device()
            let answer = try await device.activate(
                type: "CUSTOM", identity: ["accessToken": token], extraHeaders: ["DPoP": try proof(key, url: url)])
            #expect(answer.status == 200, "\(answer.json)")
            #expect(try await device.status().state == .active)
        }
    }

    @Test func activationByAuthorizationCodeIsSingleUse() async throws {
        try await PowerAuthFixture.run { fixture in
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: fixture.server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: fixture.clock))
            await keyway.flow.start(identifier: "device-owner@example.com")
            await keyway.flow.submitCode(try await fixture.server.latestCode(to: "device-owner@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let verifier = try #require(completion.codeVerifier).revealed
            let identity: [String: String] = [
                "authorizationCode": completion.authCode.revealed, "codeVerifier": verifier,
                "redirectUri": "", "clientId": TestServer.configId,
            ]

            var device = fixture.device()
            let answer = try await device.activate(type: "CUSTOM", identity: identity)
            #expect(answer.status == 200, "\(answer.json)")
            #expect(try await device.status().state == .active)
            #expect(try await fixture.listed(try #require(device.activationId))?["status"] as? String == "ACTIVE")

            var replay = fixture.device()
            let replayed = try await replay.activate(type: "CUSTOM", identity: identity)
            #expect(replayed.status == 400 && replayed.errorCode == "ERR_ACTIVATION")
            // Nor can the token endpoint redeem it after.
            let token = try await fixture.server.token([
                "grant_type": "authorization_code", "code": completion.authCode.revealed, "client_id": TestServer.configId,
                "code_verifier": verifier,
            ])
            #expect(token.status == 400)
        }
    }

    @Test func recoveryAfterRemovalMakesANewActivationAndUsesThePUKUp() async throws {
        try await PowerAuthFixture.run { fixture in
            let (first, code) = try await fixture.activationCode()
            var device = fixture.device()
            #expect(try await device.activate(type: "CODE", identity: ["code": code]).status == 200)
            let recovery = try #require(device.recovery)
            #expect(try RecoveryPUK(recovery.puk).value == recovery.puk)
            #expect(ActivationCode.isValid(recovery.code))

            #expect(try await device.remove().status == 200)
            #expect(try await device.status().state == .removed)

            // A wrong PUK counts; the right one recovers.
            var replacement = fixture.device()
            let wrongPuk = recovery.puk == "0000000000" ? "0000000001" : "0000000000"
            let wrong = try await replacement.activate(type: "RECOVERY", identity: ["recoveryCode": recovery.code, "puk": wrongPuk])
            #expect(wrong.status == 400 && wrong.errorCode == "ERR_ACTIVATION")
            #expect((wrong.json["responseObject"] as? [String: Any])?["currentRecoveryPukIndex"] as? Int == 1)
            let recovered = try await replacement.activate(
                type: "RECOVERY", identity: ["recoveryCode": recovery.code, "puk": recovery.puk])
            #expect(recovered.status == 200, "\(recovered.json)")
            #expect(replacement.activationId != first)
            #expect(try await replacement.status().state == .active)
            #expect(replacement.recovery != nil && replacement.recovery?.code != recovery.code)
            #expect(try await replacement.validate([.possession, .knowledge]).status == 200)

            // Used up.
            var third = fixture.device()
            #expect(try await third.activate(type: "RECOVERY", identity: ["recoveryCode": recovery.code, "puk": recovery.puk]).status == 400)
            // No secret reached the log.
            let log = fixture.server.logs.all.joined(separator: "\n")
            #expect(log.contains("powerauth: activation created"))
            for secret in [code, recovery.code, recovery.puk, fixture.application.applicationSecret] {
                #expect(!log.contains(secret))
            }
        }
    }

    @Test func recoveryOfALiveActivationRemovesItAndFiveWrongPUKsBlockTheCode() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = fixture.device()
            #expect(try await device.activate(type: "CUSTOM", identity: ["accessToken": fixture.accessToken]).status == 200)
            let recovery = try #require(device.recovery)
            var replacement = fixture.device()
            #expect(try await replacement.activate(type: "RECOVERY", identity: ["recoveryCode": recovery.code, "puk": recovery.puk]).status == 200)
            #expect(try await device.status().state == .removed)

            let next = try #require(replacement.recovery)
            var attacker = fixture.device()
            let wrong = next.puk == "1111111111" ? "2222222222" : "1111111111"
            for _ in 0..<5 {
                #expect(try await attacker.activate(type: "RECOVERY", identity: ["recoveryCode": next.code, "puk": wrong]).status == 400)
            }
            let blocked = try await attacker.activate(type: "RECOVERY", identity: ["recoveryCode": next.code, "puk": next.puk])
            #expect(blocked.status == 400 && blocked.errorCode == "ERR_ACTIVATION")
            #expect(try await replacement.status().state == .active)
        }
    }

    @Test func withoutRecoveryNoCodeIsHandedOut() async throws {
        try await PowerAuthFixture.run { fixture in
            let patched = try await fixture.admin(
                "PATCH", "/admin/applications/\(TestServer.configId)/powerauth", ["recoveryEnabled": false, "maxFailedAttempts": 3])
            #expect(patched.status == 200 && patched.json["recoveryEnabled"] as? Bool == false)
            var device = fixture.device()
            #expect(try await device.activate(type: "CUSTOM", identity: ["accessToken": fixture.accessToken]).status == 200)
            #expect(device.recovery == nil)
            #expect(try await device.status().maxFailedAttempts == 3)
        }
    }
}
