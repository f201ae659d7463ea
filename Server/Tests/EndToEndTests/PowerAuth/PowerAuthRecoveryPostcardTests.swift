import Crypto
import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("PowerAuth recovery postcards: made by the admin, confirmed by a device, PUKs used in order, blocked, revoked")
struct PowerAuthRecoveryPostcardTests {
    /// A new postcard of the fixture's user.
    static func postcard(_ fixture: PowerAuthFixture, pukCount: Int? = nil) async throws -> (id: String, code: String, puks: [String]) {
        var body: [String: Any] = ["configId": TestServer.configId]
        if let pukCount { body["pukCount"] = pukCount }
        let created = try await fixture.admin("POST", "/admin/users/\(fixture.userId)/recovery-codes", body)
        #expect(created.status == 201, "\(created.json)")
        let code = try #require(created.json["recoveryCode"] as? String)
        #expect(ActivationCode.isValid(code))
        #expect(created.json["qrPayload"] as? String == "R:" + code)
        #expect(created.json["status"] as? String == "CREATED")
        let puks = try #require(created.json["puks"] as? [[String: Any]])
        #expect(puks.map { $0["index"] as? Int } == Array(1...(pukCount ?? 5)).map(Optional.some))
        let values = puks.compactMap { $0["puk"] as? String }
        #expect(values.count == puks.count && Set(values).count == values.count)
        #expect(values.allSatisfy { (try? RecoveryPUK($0).value) == $0 })
        return (try #require(created.json["recoveryCodeId"] as? String), code, values)
    }

    /// `POST /pa/v3/recovery/confirm` from `device`: `alreadyConfirmed`, or the refusal.
    static func confirm(_ device: inout PowerAuthTestDevice, _ code: String, factors: PowerAuthSignatureFactors = [.possession, .knowledge])
        async throws -> Result<Bool, PowerAuthAnswerFailure>
    {
        let (answer, context) = try await device.sealedSigned(
            ["recoveryCode": code], path: "/pa/v3/recovery/confirm", uriId: "/pa/recovery/confirm",
            sharedInfo1: .confirmRecoveryCode, factors: factors)
        guard answer.status == 200 else { return .failure(PowerAuthAnswerFailure(answer: answer)) }
        let plain = try JSONSerialization.jsonObject(with: try PowerAuthTestDevice.open(answer.json, with: context)) as? [String: Any]
        return .success(try #require(plain?["alreadyConfirmed"] as? Bool))
    }

    static func listed(_ fixture: PowerAuthFixture, _ id: String) async throws -> [String: Any]? {
        let list = try await fixture.admin("GET", "/admin/users/\(fixture.userId)/recovery-codes")
        #expect(list.status == 200)
        return (list.json["recoveryCodes"] as? [[String: Any]])?.first { $0["recoveryCodeId"] as? String == id }
    }

    static func pukIndex(_ answer: PowerAuthAnswer) -> Int? {
        (answer.json["responseObject"] as? [String: Any])?["currentRecoveryPukIndex"] as? Int
    }

    @Test func aConfirmedPostcardRecoversWithItsPUKsInOrderRemovingWhatItRecoveredBefore() async throws {
        try await PowerAuthFixture.run { fixture in
            var owner = try await PowerAuthSignatureTests.activeDevice(fixture)
            let card = try await Self.postcard(fixture, pukCount: 3)
            var listed = try #require(try await Self.listed(fixture, card.id))
            #expect(listed["status"] as? String == "CREATED" && listed["pukCount"] as? Int == 3)
            #expect(listed["pukCurrentIndex"] as? Int == 1 && listed["activationId"] == nil)
            #expect(listed["configId"] as? String == TestServer.configId)
            // The owner's own activation-bound code is listed too, ACTIVE.
            let all = try await fixture.admin("GET", "/admin/users/\(fixture.userId)/recovery-codes")
            #expect((all.json["recoveryCodes"] as? [[String: Any]])?.contains {
                $0["activationId"] as? String == owner.activationId && $0["status"] as? String == "ACTIVE"
            } == true)

            // Not confirmed yet: refused, as the reference server does.
            var first = fixture.device()
            let early = try await first.activate(type: "RECOVERY", identity: ["recoveryCode": card.code, "puk": card.puks[0]])
            #expect(early.status == 400 && early.errorCode == "ERR_ACTIVATION", "\(early.json)")

            // Possession alone cannot confirm; another user's device cannot; an unknown code neither.
            #expect(try await Self.confirm(&owner, card.code, factors: .possession).failure?.answer.status == 401)
            try await owner.synchronize()
            let stranger = try await PowerAuthFixture.signIn(fixture.server, clock: fixture.clock, email: "stranger@example.com")
            var strangerDevice = fixture.device()
            #expect(try await strangerDevice.activate(type: "CUSTOM", identity: ["accessToken": stranger.response.accessToken.revealed]).status == 200)
            #expect(try await Self.confirm(&strangerDevice, card.code).failure?.answer.errorCode == "ERR_RECOVERY")
            #expect(try await Self.confirm(&owner, ActivationCode.random().value).failure?.answer.errorCode == "ERR_RECOVERY")
            #expect(try await Self.listed(fixture, card.id)?["status"] as? String == "CREATED")
            // The owner confirms it; again, it is already confirmed.
            #expect(try await Self.confirm(&owner, card.code).get() == false)
            #expect(try await Self.confirm(&owner, card.code).get() == true)
            #expect(try await Self.listed(fixture, card.id)?["status"] as? String == "ACTIVE")

            // PUK #2 first: refused and counted, the current index told.
            let outOfOrder = try await first.activate(type: "RECOVERY", identity: ["recoveryCode": card.code, "puk": card.puks[1]])
            #expect(outOfOrder.status == 400 && outOfOrder.errorCode == "ERR_ACTIVATION")
            #expect(Self.pukIndex(outOfOrder) == 1)
            #expect(try await Self.listed(fixture, card.id)?["failedAttempts"] as? Int == 1)

            // PUK #1 recovers; the owner's activation stays (a postcard is bound to none).
            #expect(try await first.activate(type: "RECOVERY", identity: ["recoveryCode": card.code, "puk": card.puks[0]]).status == 200)
            #expect(try await first.status().state == .active)
            #expect(try await owner.status().state == .active)
            listed = try #require(try await Self.listed(fixture, card.id))
            #expect(listed["status"] as? String == "ACTIVE" && listed["pukCurrentIndex"] as? Int == 2 && listed["failedAttempts"] as? Int == 0)
            #expect(first.recovery != nil && first.recovery?.code != card.code)
            // PUK #1 again: used up.
            var second = fixture.device()
            let reused = try await second.activate(type: "RECOVERY", identity: ["recoveryCode": card.code, "puk": card.puks[0]])
            #expect(reused.status == 400 && Self.pukIndex(reused) == 2)

            // PUK #2 recovers and removes what PUK #1 recovered.
            #expect(try await second.activate(type: "RECOVERY", identity: ["recoveryCode": card.code, "puk": card.puks[1]]).status == 200)
            #expect(try await first.status().state == .removed)
            #expect(try await second.status().state == .active)
            // The last PUK: the code is used up (REVOKED).
            var third = fixture.device()
            #expect(try await third.activate(type: "RECOVERY", identity: ["recoveryCode": card.code, "puk": card.puks[2]]).status == 200)
            #expect(try await second.status().state == .removed)
            listed = try #require(try await Self.listed(fixture, card.id))
            #expect(listed["status"] as? String == "REVOKED" && listed["pukCurrentIndex"] == nil)
            var fourth = fixture.device()
            #expect(try await fourth.activate(type: "RECOVERY", identity: ["recoveryCode": card.code, "puk": card.puks[2]]).status == 400)

            // No code or PUK reached the log.
            let log = fixture.server.logs.all.joined(separator: "\n")
            #expect(log.contains("admin: recovery postcard created") && log.contains("powerauth: recovery code confirmed"))
            for secret in [card.code] + card.puks { #expect(!log.contains(secret)) }
        }
    }

    @Test func fiveWrongPUKsBlockAPostcardARevokedOneIsDeadAndTheAdminAPIRefusesNonsense() async throws {
        try await PowerAuthFixture.run { fixture in
            var owner = try await PowerAuthSignatureTests.activeDevice(fixture)
            let card = try await Self.postcard(fixture)
            #expect(card.puks.count == 5)
            #expect(try await Self.confirm(&owner, card.code).get() == false)
            var attacker = fixture.device()
            let wrong = card.puks.contains("0000000000") ? "0000000001" : "0000000000"
            for attempt in 1...5 {
                let answer = try await attacker.activate(type: "RECOVERY", identity: ["recoveryCode": card.code, "puk": wrong])
                #expect(answer.status == 400 && answer.errorCode == "ERR_ACTIVATION" && Self.pukIndex(answer) == 1, "attempt \(attempt)")
            }
            let blocked = try await attacker.activate(type: "RECOVERY", identity: ["recoveryCode": card.code, "puk": card.puks[0]])
            #expect(blocked.status == 400 && blocked.errorCode == "ERR_ACTIVATION")
            let listed = try #require(try await Self.listed(fixture, card.id))
            #expect(listed["status"] as? String == "BLOCKED" && listed["failedAttempts"] as? Int == 5)

            // Revoked: neither confirmed nor used.
            let revokedCard = try await Self.postcard(fixture, pukCount: 1)
            let revoked = try await fixture.admin("DELETE", "/admin/recovery-codes/\(revokedCard.id)")
            #expect(revoked.status == 200 && revoked.json["status"] as? String == "REVOKED", "\(revoked.json)")
            #expect(revoked.json["pukCurrentIndex"] == nil)
            #expect(try await Self.confirm(&owner, revokedCard.code).failure?.answer.errorCode == "ERR_RECOVERY")
            var late = fixture.device()
            #expect(try await late.activate(type: "RECOVERY", identity: ["recoveryCode": revokedCard.code, "puk": revokedCard.puks[0]]).status == 400)
            #expect(try await fixture.admin("DELETE", "/admin/recovery-codes/parc_unknown").status == 404)

            // The admin API refuses nonsense.
            for body: [String: Any] in [
                ["configId": TestServer.configId, "pukCount": 0], ["configId": TestServer.configId, "pukCount": 101], [:],
            ] {
                #expect(try await fixture.admin("POST", "/admin/users/\(fixture.userId)/recovery-codes", body).status == 400, "\(body)")
            }
            #expect(try await fixture.admin("POST", "/admin/users/\(fixture.userId)/recovery-codes", ["configId": "nope"]).status == 404)
            #expect(try await fixture.admin("POST", "/admin/users/usr_nobody/recovery-codes", ["configId": TestServer.configId]).status == 404)
            #expect(try await fixture.admin("GET", "/admin/users/usr_nobody/recovery-codes").status == 404)
            let unauthenticated = try await fixture.server.request("GET", "/admin/users/\(fixture.userId)/recovery-codes")
            #expect(unauthenticated.status == 401)
        }
    }

    @Test func theVaultOpensForThePublishedReasonsOnly() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            for reason in ["ADD_BIOMETRY", "FETCH_ENCRYPTION_KEY", "SIGN_WITH_DEVICE_PRIVATE_KEY", "RECOVERY_CODE"] {
                let (answer, context) = try await device.sealedSigned(
                    ["reason": reason], path: "/pa/v3/vault/unlock", uriId: "/pa/vault/unlock", sharedInfo1: .vaultUnlock,
                    factors: [.possession, .knowledge])
                #expect(answer.status == 200, "\(reason): \(answer.json)")
                let plain = try JSONSerialization.jsonObject(with: try PowerAuthTestDevice.open(answer.json, with: context)) as? [String: Any]
                let encrypted = try #require((plain?["encryptedVaultEncryptionKey"] as? String).flatMap { Data(base64Encoded: $0) })
                _ = try PowerAuthKeyProtection.decryptVaultKey(encrypted, transportKey: device.transportKey)
            }
            let (refused, _) = try await device.sealedSigned(
                ["reason": "CURIOSITY"], path: "/pa/v3/vault/unlock", uriId: "/pa/vault/unlock", sharedInfo1: .vaultUnlock,
                factors: [.possession, .knowledge])
            #expect(refused.status == 400 && refused.errorCode == "ERR_INVALID_REQUEST")
        }
    }
}

extension Result {
    /// The failure, when it is one.
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
