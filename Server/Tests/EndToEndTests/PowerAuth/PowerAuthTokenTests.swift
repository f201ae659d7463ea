import Crypto
import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("PowerAuth MAC tokens: created signed and sealed, verified by an app's backend, removed, revoked")
struct PowerAuthTokenTests {
    @Test func aTokenOfEachFactorSetVerifiesThroughTheBackendOnceWithinTheWindow() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            let backend = try await PowerAuthBackendClient.make(fixture)
            let sets: [PowerAuthSignatureFactors] = [
                .possession, [.possession, .knowledge], [.possession, .biometry], [.possession, .knowledge, .biometry],
            ]
            var created: [String: String] = [:]
            for factors in sets {
                let token = try await device.createToken(factors).get()
                #expect(UUID(uuidString: token.id) != nil && token.secret.count == 16)
                created[token.id] = factors.typeName
                let header = try PowerAuthTestDevice.tokenHeader(id: token.id, secret: token.secret, timestamp: milliseconds(fixture))
                let answer = try await backend.call("POST", "/v1/powerauth/tokens/verify", ["authorization": header])
                #expect(answer.status == 200 && answer.json["valid"] as? Bool == true, "\(factors): \(answer.json)")
                #expect(answer.json["activationId"] as? String == activationId)
                #expect(answer.json["userId"] as? String == fixture.userId)
                #expect(answer.json["tokenId"] as? String == token.id)
                #expect(answer.json["factors"] as? String == factors.typeName)

                // The same header again: its nonce is spent.
                let replayed = try await backend.call("POST", "/v1/powerauth/tokens/verify", ["authorization": header])
                #expect(replayed.json["valid"] as? Bool == false && replayed.refusalCode == "TOKEN_REPLAYED")

                // A minimum of factors the token does not prove.
                let needsKnowledge = try await backend.call(
                    "POST", "/v1/powerauth/tokens/verify",
                    [
                        "authorization": try PowerAuthTestDevice.tokenHeader(id: token.id, secret: token.secret, timestamp: milliseconds(fixture)),
                        "requiredFactors": "possession_knowledge",
                    ])
                let proves = factors.contains(.knowledge)
                #expect(needsKnowledge.json["valid"] as? Bool == proves, "\(factors): \(needsKnowledge.json)")
                if !proves { #expect(needsKnowledge.refusalCode == "INSUFFICIENT_FACTORS") }
            }
            let token = try await device.createToken(.possession).get()
            created[token.id] = "possession"
            // Outside ±5 minutes, either way.
            for offset: TimeInterval in [-360, 360] {
                let stale = try PowerAuthTestDevice.tokenHeader(id: token.id, secret: token.secret, timestamp: milliseconds(fixture, offset: offset))
                let answer = try await backend.call("POST", "/v1/powerauth/tokens/verify", ["authorization": stale])
                #expect(answer.json["valid"] as? Bool == false && answer.refusalCode == "TOKEN_EXPIRED", "\(answer.json)")
            }
            // Within the window, and in version 3.2.
            let v32 = try PowerAuthTestDevice.tokenHeader(
                id: token.id, secret: token.secret, timestamp: milliseconds(fixture, offset: -240), version: .v32)
            #expect(try await backend.call("POST", "/v1/powerauth/tokens/verify", ["authorization": v32]).json["valid"] as? Bool == true)
            // A wrong secret, an unknown token, a malformed header, version 3.1.
            for header in [
                try PowerAuthTestDevice.tokenHeader(id: token.id, secret: Data(count: 16), timestamp: milliseconds(fixture)),
                try PowerAuthTestDevice.tokenHeader(id: UUID().uuidString.lowercased(), secret: token.secret, timestamp: milliseconds(fixture)),
                "PowerAuth token_id=\"\(token.id)\"", "Bearer x",
                try PowerAuthTestDevice.tokenHeader(id: token.id, secret: token.secret, timestamp: milliseconds(fixture), version: .v31),
            ] {
                let answer = try await backend.call("POST", "/v1/powerauth/tokens/verify", ["authorization": header])
                #expect(answer.status == 200 && answer.refusalCode == "TOKEN_INVALID", "\(header): \(answer.json)")
            }
            // Malformed bodies: 400, never 500.
            for body in [Data("{".utf8), Data("{}".utf8), Data(#"{"authorization": 5}"#.utf8), Data(#"{"authorization":"x","requiredFactors":"knowledge"}"#.utf8)] {
                let answer = try await backend.post("/v1/powerauth/tokens/verify", raw: body)
                #expect(answer.status == 400 && answer.oauthError == "invalid_request", "\(String(decoding: body, as: UTF8.self))")
            }
            // The admin lists them (never their secrets), the last use included.
            let list = try await fixture.admin("GET", "/admin/activations/\(activationId)/tokens")
            #expect(list.status == 200)
            let tokens = try #require(list.json["tokens"] as? [[String: Any]])
            #expect(Dictionary(uniqueKeysWithValues: tokens.map { ($0["tokenId"] as? String ?? "", $0["factors"] as? String ?? "") }) == created)
            #expect(tokens.allSatisfy { $0["tokenSecret"] == nil && $0["createdAt"] is String })
            #expect(tokens.first { $0["tokenId"] as? String == token.id }?["lastUsedAt"] is String)
            let log = fixture.server.logs.all.joined(separator: "\n")
            #expect(log.contains("powerauth: token created"))
            #expect(!log.contains(token.secret.base64EncodedString()))
        }
    }

    @Test func removedRevokedAndInactiveTokensStopVerifyingAndAnotherActivationsTokenIsUnknown() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            var other = try await PowerAuthSignatureTests.activeDevice(fixture)
            let backend = try await PowerAuthBackendClient.make(fixture)
            func verify(_ token: (id: String, secret: Data), using client: PowerAuthBackendClient? = nil) async throws -> PowerAuthAnswer {
                try await (client ?? backend).call(
                    "POST", "/v1/powerauth/tokens/verify",
                    ["authorization": try PowerAuthTestDevice.tokenHeader(id: token.id, secret: token.secret, timestamp: milliseconds(fixture))])
            }
            let first = try await device.createToken([.possession, .knowledge]).get()
            let second = try await device.createToken(.possession).get()

            // Another activation cannot remove it: unknown, and nothing removed.
            let foreign = try await other.removeToken(first.id)
            #expect(foreign.status == 400 && foreign.errorCode == "ERR_TOKEN", "\(foreign.json)")
            #expect(try await verify(first).json["valid"] as? Bool == true)
            // Another project's backend does not know it.
            let stranger = try await PowerAuthBackendClient.make(fixture, sameProject: false)
            #expect(try await verify(first, using: stranger).refusalCode == "TOKEN_INVALID")

            // The device removes it.
            let removed = try await device.removeToken(first.id)
            #expect(removed.status == 200 && removed.json["status"] as? String == "OK", "\(removed.json)")
            #expect((removed.json["responseObject"] as? [String: Any])?["tokenId"] as? String == first.id)
            #expect(try await verify(first).refusalCode == "TOKEN_INVALID")
            #expect(try await device.removeToken(first.id).errorCode == "ERR_TOKEN")

            // A blocked activation's tokens stop verifying, and work again once it is unblocked.
            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/block").status == 200)
            let blocked = try await verify(second)
            #expect(blocked.json["valid"] as? Bool == false && blocked.refusalCode == "ACTIVATION_INACTIVE", "\(blocked.json)")
            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/unblock").status == 200)
            #expect(try await verify(second).json["valid"] as? Bool == true)

            // The admin revokes one.
            let third = try await device.createToken(.possession).get()
            #expect(try await fixture.admin("DELETE", "/admin/activations/\(activationId)/tokens/\(third.id)").status == 204)
            #expect(try await verify(third).refusalCode == "TOKEN_INVALID")
            #expect(try await fixture.admin("DELETE", "/admin/activations/\(activationId)/tokens/\(third.id)").status == 404)
            #expect(try await fixture.admin("GET", "/admin/activations/nope/tokens").status == 404)

            // Removing the activation deletes its tokens.
            #expect(try await device.remove().status == 200)
            #expect(try await verify(second).refusalCode == "TOKEN_INVALID")
            let list = try await fixture.admin("GET", "/admin/activations/\(activationId)/tokens")
            #expect((list.json["tokens"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func anActivationKeepsAtMostFiftyTokensAndMalformedRequestsAreRefused() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            var ids: [String] = []
            for _ in 0..<51 {
                ids.append(try await device.createToken(.possession).get().id)
            }
            let list = try await fixture.admin("GET", "/admin/activations/\(activationId)/tokens")
            let listed = Set((list.json["tokens"] as? [[String: Any]] ?? []).compactMap { $0["tokenId"] as? String })
            #expect(listed.count == 50)
            #expect(!listed.contains(ids[0]) && listed.contains(ids[50]))

            // Malformed: 400 with the published body, never 500.
            for body in [Data("{".utf8), Data("{}".utf8), Data(#"{"requestObject":{}}"#.utf8), Data(#"{"temporaryKeyId":"x"}"#.utf8)] {
                for path in ["/pa/v3/token/create", "/pa/v3/token/remove", "/pa/v3/recovery/confirm"] {
                    let header = try device.authorization(uriId: "/pa/token/remove", body: body, factors: .possession)
                    let answer = try await device.post(path, headers: ["X-PowerAuth-Authorization": header], body: body)
                    #expect([400, 401].contains(answer.status) && answer.errorCode != nil, "\(path): \(answer.status)")
                }
            }
            let unsigned = try await device.post(
                "/pa/v3/token/remove", body: Data(#"{"requestObject":{"tokenId":"x"}}"#.utf8))
            #expect(unsigned.status == 400 && unsigned.errorCode == "ERR_INVALID_REQUEST")
            try await device.synchronize()
        }
    }

    @Test func staleAndFutureEnvelopesAreRefusedBeforeAnythingCounts() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let key = try await device.temporaryKey(activationScope: true)
            let sealed = try device.seal(Data("{}".utf8), key: key, sharedInfo1: .createToken, activationScope: true)
            let body = try JSONSerialization.data(withJSONObject: sealed.body)
            let header = try device.authorization(uriId: "/pa/token/create", body: body, factors: .possession)
            fixture.clock.advance(by: 301)
            let stale = try await device.post("/pa/v3/token/create", headers: ["X-PowerAuth-Authorization": header], body: body)
            #expect(stale.status == 400 && stale.errorCode == "ERR_ENCRYPTION", "\(stale.json)")
            #expect(((stale.json["responseObject"] as? [String: Any])?["message"] as? String)?.contains("stale") == true)
            // Nothing counted, and the counter did not move: the next signature is one step ahead, within the window.
            #expect(try await device.status().failedAttempts == 0)
            #expect(try await device.createToken(.possession).get().id.isEmpty == false)

            // A device whose clock runs six minutes ahead cannot activate.
            let (_, code) = try await fixture.activationCode()
            var ahead = PowerAuthTestDevice(
                server: fixture.server, application: fixture.application, clock: ManualClock(fixture.clock.now().addingTimeInterval(360)))
            let future = try await ahead.activate(type: "CODE", identity: ["code": code])
            #expect(future.status == 400 && future.errorCode == "ERR_ENCRYPTION", "\(future.json)")
            #expect(((future.json["responseObject"] as? [String: Any])?["message"] as? String)?.contains("future") == true)
            // Within the window, it can.
            var close = PowerAuthTestDevice(
                server: fixture.server, application: fixture.application, clock: ManualClock(fixture.clock.now().addingTimeInterval(240)))
            #expect(try await close.activate(type: "CODE", identity: ["code": code]).status == 200)
        }
    }
}
