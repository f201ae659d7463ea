import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("PowerAuth online signatures: factors, failures and blocking, the counter window, concurrency, tampering, vault")
struct PowerAuthSignatureTests {
    /// A device activated by the fixture's access token.
    static func activeDevice(_ fixture: PowerAuthFixture) async throws -> PowerAuthTestDevice {
        var device = fixture.device()
        let answer = try await device.activate(type: "CUSTOM", identity: ["accessToken": fixture.accessToken])
        #expect(answer.status == 200, "\(answer.json)")
        return device
    }

    @Test func oneTwoAndThreeFactorsVerifyAndTheCounterStaysInStep() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await Self.activeDevice(fixture)
            for factors: PowerAuthSignatureFactors in [
                .possession, [.possession, .knowledge], [.possession, .biometry], [.possession, .knowledge, .biometry],
            ] {
                let answer = try await device.validate(factors)
                #expect(answer.status == 200, "\(factors): \(answer.json)")
                #expect(answer.json["status"] as? String == "OK")
                let blob = try await device.status()
                #expect(try device.counterDistance(blob) == 0)
                #expect(blob.failedAttempts == 0)
            }
            #expect(try await device.status().counterByte == 4)
            // GET with the canonical query as the signed body.
            let header = try device.authorization(
                method: "GET", uriId: "/pa/signature/validate",
                body: PowerAuthSignature.canonicalQuery([("b", "2"), ("a", "1 2")]), factors: [.possession, .knowledge])
            let get = try await device.send(
                "GET", "/pa/v3/signature/validate?b=2&a=1%202", headers: ["X-PowerAuth-Authorization": header], body: nil)
            #expect(get.status == 200, "\(get.json)")
            #expect(try await fixture.listed(try #require(device.activationId))?["lastUsedAt"] as? String != nil)
        }
    }

    /// A stock SDK signs a GET over the query decoded, sorted and encoded again with Java's
    /// `URLEncoder` rules; the signed bytes here are written out by hand, not computed by Keyway's
    /// own code. Values with a space, `:`, `@`, `/`, non-ASCII and `~` verify, by GET and DELETE,
    /// whatever the query's order and spelling of its escapes; a malformed escape is refused
    /// without counting.
    @Test func getsAndDeletesSignedOverTheJavaCanonicalQuery() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await Self.activeDevice(fixture)
            let signed = Data("at=2026-11-28T10%3A00&from=J%C3%BCrgen+M%C3%BCller&path=%2Fa%2Fb&to=bob%40example.com&x=%7E*".utf8)
            for (method, query) in [
                ("GET", "to=bob%40example.com&from=J%C3%BCrgen%20M%C3%BCller&path=/a/b&at=2026-11-28T10:00&x=~*"),
                ("DELETE", "x=%7E%2A&path=%2fa%2fb&at=2026-11-28T10%3a00&to=bob@example.com&from=J%c3%bcrgen+M%c3%bcller&flag"),
            ] {
                let header = try device.authorization(
                    method: method, uriId: "/pa/signature/validate", body: signed, factors: [.possession, .knowledge])
                let answer = try await device.send(
                    method, "/pa/v3/signature/validate?\(query)", headers: ["X-PowerAuth-Authorization": header], body: nil)
                #expect(answer.status == 200, "\(method): \(answer.json)")
            }
            let header = try device.authorization(
                method: "GET", uriId: "/pa/signature/validate", body: Data("a=%zz".utf8), factors: .possession)
            let malformed = try await device.send(
                "GET", "/pa/v3/signature/validate?a=%zz", headers: ["X-PowerAuth-Authorization": header], body: nil)
            #expect(malformed.status == 400 && malformed.errorCode == "ERR_INVALID_REQUEST", "\(malformed.json)")
            let blob = try await device.status()
            #expect(blob.failedAttempts == 0)
        }
    }

    @Test func wrongKnowledgeCountsBlocksAtTheMaximumAndTheAdminUnblocksAndRemoves() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await Self.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            let before = try await device.status()
            let failed = try await device.validate([.possession, .knowledge], wrongKnowledge: true)
            #expect(failed.status == 401 && failed.errorCode == "POWERAUTH_AUTH_FAIL")
            var blob = try await device.status()
            #expect(blob.failedAttempts == 1 && blob.state == .active)
            // The failure is counted, the server's counter is not moved: the device, one step
            // ahead, is found in the window.
            #expect(blob.counterByte == before.counterByte)
            // A success resets the count; possession alone does not.
            #expect(try await device.validate(.possession).status == 200)
            #expect(try await device.status().failedAttempts == 1)
            #expect(try await device.validate([.possession, .knowledge]).status == 200)
            #expect(try await device.status().failedAttempts == 0)

            for attempt in 1...5 {
                let answer = try await device.validate([.possession, .knowledge], wrongKnowledge: true)
                #expect(answer.status == 401)
                blob = try await device.status()
                #expect(Int(blob.failedAttempts) == attempt)
                #expect(blob.state == (attempt < 5 ? .active : .blocked))
            }
            #expect(try await fixture.listed(activationId)?["blockedReason"] as? String == "MAX_FAILED_ATTEMPTS")
            // Blocked: even the right signature is refused, and nothing more is counted.
            #expect(try await device.validate([.possession, .knowledge]).status == 401)
            #expect(try await device.status().failedAttempts == 5)

            let unblocked = try await fixture.admin("POST", "/admin/activations/\(activationId)/unblock")
            #expect(unblocked.status == 200 && unblocked.json["failedAttempts"] as? Int == 0, "\(unblocked.json)")
            blob = try await device.status()
            #expect(blob.state == .active && blob.failedAttempts == 0)
            // The device moved its counter for the refused signature; the server finds it ahead.
            #expect(try await device.validate([.possession, .knowledge]).status == 200)
            #expect(try device.counterDistance(try await device.status()) == 0)

            let blocked = try await fixture.admin("POST", "/admin/activations/\(activationId)/block", ["reason": "LOST"])
            #expect(blocked.status == 200 && blocked.json["blockedReason"] as? String == "LOST")
            #expect(try await device.status().state == .blocked)
            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/unblock").status == 200)

            let removed = try await fixture.admin("DELETE", "/admin/activations/\(activationId)")
            #expect(removed.status == 200 && removed.json["status"] as? String == "REMOVED")
            #expect(try await device.status().state == .removed)
            #expect(try await device.validate(.possession).status == 401)
            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/unblock").status == 409)
            #expect(try await fixture.admin("DELETE", "/admin/activations/nope").status == 404)
        }
    }

    @Test func theCounterWindowIsTwentyAhead() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await Self.activeDevice(fixture)
            // Fifteen signatures the server never saw: the sixteenth still verifies.
            for _ in 0..<15 { device.counterData = PowerAuthHashCounter.next(device.counterData) }
            #expect(try await device.validate([.possession, .knowledge]).status == 200)
            var blob = try await device.status()
            #expect(try device.counterDistance(blob) == 0)
            #expect(blob.counterByte == 16)
            // Twenty-five ahead does not.
            for _ in 0..<25 { device.counterData = PowerAuthHashCounter.next(device.counterData) }
            #expect(try await device.validate([.possession, .knowledge]).status == 401)
            blob = try await device.status()
            #expect(blob.failedAttempts == 1)
        }
    }

    @Test func concurrentVerificationsNeverAcceptOneCounterTwice() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await Self.activeDevice(fixture)
            let body = Data("{\"transfer\":1}".utf8)
            // One signed request sent many times at once: exactly one is accepted.
            let header = try device.authorization(uriId: "/pa/signature/validate", body: body, factors: .possession)
            let sender = device
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await sender.post("/pa/v3/signature/validate", headers: ["X-PowerAuth-Authorization": header], body: body).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 401 }.count == 7, "\(statuses)")
            // Distinct signatures with consecutive counters all verify, whatever order they arrive in.
            var headers: [String] = []
            let unblocked = try await fixture.admin("POST", "/admin/activations/\(try #require(device.activationId))/unblock")
            #expect(unblocked.status == 200)
            // The refused replays were counted (and blocked the activation) but moved no counter.
            #expect(try device.counterDistance(try await device.status()) == 0)
            #expect(try await device.validate(.possession).status == 200)
            for _ in 0..<5 {
                headers.append(try device.authorization(uriId: "/pa/signature/validate", body: body, factors: .possession))
            }
            let second = device
            let accepted = try await withThrowingTaskGroup(of: Int.self) { group in
                for header in headers {
                    group.addTask {
                        try await second.post("/pa/v3/signature/validate", headers: ["X-PowerAuth-Authorization": header], body: body).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // Each arrives at most once; one that arrives after a later one moved the counter past it is refused.
            #expect(accepted.filter { $0 == 200 }.count >= 1)
            #expect(accepted.allSatisfy { $0 == 200 || $0 == 401 })
        }
    }

    @Test func tamperedRequestsAreRefused() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await Self.activeDevice(fixture)
            let body = Data("{\"amount\":100}".utf8)
            let nonce = Data(repeating: 7, count: 16)
            func send(_ header: String, _ body: Data) async throws -> PowerAuthAnswer {
                try await device.post("/pa/v3/signature/validate", headers: ["X-PowerAuth-Authorization": header], body: body)
            }
            // The body changed after signing.
            var header = try device.authorization(uriId: "/pa/signature/validate", body: body, factors: [.possession, .knowledge])
            #expect(try await send(header, Data("{\"amount\":900}".utf8)).status == 401)
            // Another URI identifier.
            header = try device.authorization(uriId: "/pa/activation/remove", body: body, factors: [.possession, .knowledge])
            #expect(try await send(header, body).status == 401)
            // The nonce changed.
            header = try device.authorization(uriId: "/pa/signature/validate", body: body, factors: [.possession, .knowledge], nonce: nonce)
            let otherNonce = Data(repeating: 8, count: 16).base64EncodedString()
            #expect(try await send(header.replacingOccurrences(of: nonce.base64EncodedString(), with: otherNonce), body).status == 401)
            // The factors claimed changed (a 2FA signature presented as possession + biometry).
            header = try device.authorization(uriId: "/pa/signature/validate", body: body, factors: [.possession, .knowledge])
            #expect(try await send(header.replacingOccurrences(of: "possession_knowledge", with: "possession_biometry"), body).status == 401)
            // Another application key.
            header = try device.authorization(uriId: "/pa/signature/validate", body: body, factors: [.possession, .knowledge])
            let otherKey = Data(repeating: 1, count: 16).base64EncodedString()
            let swapped = header.replacingOccurrences(of: fixture.application.applicationKey, with: otherKey)
            #expect(try await send(swapped, body).status == 401)
            // Every failure that reached the signature counted.
            #expect(try await device.status().failedAttempts == 4)
            #expect(try await device.validate([.possession, .knowledge]).status == 200)
        }
    }

    @Test func removalNeedsTwoFactorsAndTheVaultOpensWithThem() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await Self.activeDevice(fixture)
            let vault = try await device.unlockVault()
            #expect(try vault.get() == device.keys?.vaultEncryption)
            // Possession alone opens neither.
            switch try await device.unlockVault(.possession) {
            case .success: Issue.record("the vault opened with possession alone")
            case .failure(let failure): #expect(failure.answer.status == 401)
            }
            let oneFactor = try await device.remove(.possession)
            #expect(oneFactor.status == 401)
            #expect(try await device.status().state == .active)
            let removed = try await device.remove()
            #expect(removed.status == 200 && removed.json["status"] as? String == "OK")
            #expect(try await device.status().state == .removed)
        }
    }

    /// A header seen once and sent again (a replay, or a client that retried) is refused and
    /// counted, and moves nothing: the device's next signatures verify and a two-factor one
    /// resets the count. Moving the server's counter on a failure would put it ahead of the
    /// device, whose next signatures would then fail until the activation blocked.
    @Test func aReplayedHeaderIsRefusedAndTheDeviceStaysInStep() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await Self.activeDevice(fixture)
            let body = Data("{\"amount\":100}".utf8)
            let header = try device.authorization(uriId: "/pa/signature/validate", body: body, factors: [.possession, .knowledge])
            let headers = ["X-PowerAuth-Authorization": header]
            #expect(try await device.post("/pa/v3/signature/validate", headers: headers, body: body).status == 200)
            for _ in 0..<3 {
                let replayed = try await device.post("/pa/v3/signature/validate", headers: headers, body: body)
                #expect(replayed.status == 401 && replayed.errorCode == "POWERAUTH_AUTH_FAIL")
            }
            let blob = try await device.status()
            #expect(blob.failedAttempts == 3 && blob.state == .active)
            #expect(try device.counterDistance(blob) == 0)
            for _ in 0..<6 {
                #expect(try await device.validate([.possession, .knowledge]).status == 200)
            }
            let after = try await device.status()
            #expect(after.failedAttempts == 0 && after.state == .active)
            #expect(try device.counterDistance(after) == 0)
        }
    }
}
