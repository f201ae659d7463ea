import Foundation
@testable import Keyway
import KeywayBackend
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Guests: what describes them, what the sweep deletes, the rate limit across instances")
struct GuestLifecycleTests {
    /// A guest made with a raw `POST /v1/guests` from `source`: the status and the answer.
    static func makeGuest(_ server: TestServer, from source: String? = nil) async throws -> (status: Int, json: [String: Any]) {
        let response = try await server.request(
            "POST", "/v1/guests", headers: [ProtocolHeader.configID: TestServer.configId], from: source)
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    @Test func introspectionUserInfoAndTheAdminAPISayWhetherTheUserIsAGuest() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: GuestTests.policy())) { harness in
            let server = harness.server
            let keyway = try harness.sdk()
            let backend = try await server.app.register(ApplicationRegistration(name: "Backend", clientType: .confidential, backendRoles: [.introspection]))
            let secret = try #require(backend.clientSecret).revealed
            let basic = ["Authorization": "Basic " + Data("\(backend.configId):\(secret)".utf8).base64EncodedString()]
            let kit = try KeywayBackend(
                configuration: .init(issuer: server.baseURL, clientId: backend.configId, clientSecret: Sensitive(secret)),
                clock: harness.clock)
            func introspect(_ token: String) async throws -> [String: Any] {
                let answer = try await server.form("/oauth2/introspect", ["token": token], headers: basic)
                #expect(answer.status == 200)
                #expect(answer.json["active"] as? Bool == true)
                return answer.json
            }

            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            let guest = try await session.signInAsGuest()
            let guestAccess = guest.response.accessToken.revealed
            let guestRefresh = try #require(guest.response.refreshToken).revealed
            #expect(try await introspect(guestAccess)["is_anonymous"] as? Bool == true)
            #expect(try await introspect(guestRefresh)["is_anonymous"] as? Bool == true)
            #expect(try await keyway.tokenClient.userInfo(accessToken: guest.response.accessToken).isAnonymous == true)
            #expect(try await kit.verifyAccessToken(guestAccess).isAnonymous == true)
            #expect(try await kit.introspect(guest.response.accessToken).isAnonymous == true)
            let listed = try await server.admin("GET", "/admin/users/\(guest.idToken.subject)")
            #expect(listed.status == 200)
            #expect(listed.json["isAnonymous"] as? Bool == true)
            #expect(listed.json["email"] == nil)
            #expect(try await server.admin("GET", "/admin/users/usr_nobody").status == 404)

            // The upgrade: nothing says anonymous any more, not even for the guest's earlier token.
            try await session.upgradeGuest(identifier: "upgraded@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "upgraded@example.com"))
            let done = try #require(await keyway.flow.completion)
            let upgraded = try await keyway.tokens.exchange(done)
            #expect(upgraded.idToken.subject == guest.idToken.subject)
            for token in [guestAccess, guestRefresh, upgraded.response.accessToken.revealed] {
                let described = try await introspect(token)
                #expect(described["sub"] as? String == guest.idToken.subject)
                #expect(described["is_anonymous"] as? Bool == false)
            }
            // The backend kit: the new token is no guest's; introspection says so of the old one too.
            #expect(try await kit.verifyAccessToken(upgraded.response.accessToken.revealed).isAnonymous == false)
            #expect(try await kit.introspect(guest.response.accessToken).isAnonymous == false)
            let info = try await keyway.tokenClient.userInfo(accessToken: upgraded.response.accessToken)
            #expect(info == UserInfo(subject: guest.idToken.subject, email: "upgraded@example.com", emailVerified: true, isAnonymous: false))
            #expect(try await keyway.tokenClient.userInfo(accessToken: guest.response.accessToken).isAnonymous == false)
            let user = try await server.admin("GET", "/admin/users/\(guest.idToken.subject)")
            #expect(user.json["isAnonymous"] as? Bool == false)
            #expect(user.json["email"] as? String == "upgraded@example.com")
            let found = try await server.admin("GET", "/admin/users?email=upgraded@example.com")
            let users = try #require(found.json["users"] as? [[String: Any]])
            #expect(users.map { $0["id"] as? String } == [guest.idToken.subject])
            #expect(users.first?["isAnonymous"] as? Bool == false)
        }
    }

    /// Attaches to `userId` what a user can have besides its sessions: a profile (through the
    /// API), a PowerAuth activation and a recovery postcard (through the admin API), and rows for
    /// a trusted device, an upstream identity, a flow with a sign-in link and an approval request.
    static func attachEverything(
        to userId: String, accessToken: Sensitive<String>, _ keyway: KeywayClient, _ harness: AdaptiveHarness, tag: String
    ) async throws {
        let server = harness.server
        _ = try await keyway.tokenClient.updateProfile(accessToken: accessToken, changes: ["displayName": .string("Guest \(tag)")])
        let activation = try await server.admin("POST", "/admin/users/\(userId)/activations", ["configId": TestServer.configId])
        #expect(activation.status == 201, "\(activation.json)")
        let postcard = try await server.admin("POST", "/admin/users/\(userId)/recovery-codes", ["configId": TestServer.configId])
        #expect(postcard.status == 201, "\(postcard.json)")
        let now = Int64(harness.clock.now().timeIntervalSince1970 * 1000)
        let later = now + 86_400_000
        let application = "(SELECT id FROM applications WHERE config_id = '\(TestServer.configId)')"
        let project = "(SELECT project_id FROM users WHERE id = '\(userId)')"
        for statement in [
            """
            INSERT INTO trusted_devices (id, user_id, application_id, public_key, key_thumbprint, name, hardware_backed,
                created_at, trusted_until)
            VALUES ('dev_\(tag)', '\(userId)', \(application), '{}', 'thumb-\(tag)', 'Phone', 0, \(now), \(later))
            """,
            """
            INSERT INTO federated_identities (id, user_id, project_id, provider_id, issuer, subject, created_at, last_used_at)
            VALUES ('fid_\(tag)', '\(userId)', \(project), 'google', 'https://accounts.example.com', 'sub-\(tag)', \(now), \(now))
            """,
            """
            INSERT INTO flows (id, application_id, flow_type, identifier, user_id, state, token_hash, code_challenge,
                created_at, expires_at, updated_at)
            VALUES ('flw_\(tag)', \(application), 'signin', 'x@example.com', '\(userId)', 'awaitingCode', 'hash-\(tag)',
                'challenge', \(now), \(later), \(now))
            """,
            """
            INSERT INTO sign_in_links (token_hash, flow_id, application_id, state, created_at, expires_at)
            VALUES ('link-\(tag)', 'flw_\(tag)', \(application), 'pending', \(now), \(later))
            """,
            """
            INSERT INTO approval_requests (id, flow_id, application_id, user_id, matching_number, qr_secret_hash, state,
                created_at, expires_at)
            VALUES ('apr_\(tag)', 'flw_\(tag)', \(application), '\(userId)', '42', 'qr-\(tag)', 'pending', \(now), \(later))
            """,
        ] {
            try await server.execute(statement)
        }
    }

    /// The rows of `userId` in every table that holds a user's ID, and the sign-in links of its
    /// flows.
    static func remnants(of userId: String, _ server: TestServer) async throws -> [String: Int] {
        let tables = [
            "users WHERE id", "sessions WHERE user_id", "refresh_tokens WHERE user_id", "authorization_codes WHERE user_id",
            "browser_sessions WHERE user_id", "consents WHERE user_id", "user_profiles WHERE user_id",
            "trusted_devices WHERE user_id", "approval_requests WHERE user_id", "flows WHERE user_id",
            "external_identities WHERE user_id", "federated_identities WHERE user_id",
            "powerauth_activations WHERE user_id", "powerauth_recovery_codes WHERE user_id",
        ]
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table] = try await server.rowCount("\(table) = '\(userId)'")
        }
        counts["sign_in_links"] = try await server.rowCount(
            "sign_in_links WHERE flow_id IN (SELECT id FROM flows WHERE user_id = '\(userId)')")
        return counts.filter { $0.value > 0 }
    }

    @Test func theSweepDeletesEverythingOfAStaleGuestAndNothingOfAnUpgradedOne() async throws {
        try await withTestServer(
            AdaptiveHarness.start(policy: GuestTests.policy(guests: ["enabled": true, "maxAge": 3_600]))
        ) { harness in
            let server = harness.server
            try await server.app.setProfileSchema([ProfileFieldDefinition(name: "displayName", type: .string)])
            let keyway = try harness.sdk()
            let stale = try await keyway.signInAsGuest()
            try await Self.attachEverything(
                to: stale.idToken.subject, accessToken: stale.response.accessToken, keyway, harness, tag: "stale")
            let kept = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            let keptGuest = try await kept.signInAsGuest()
            try await Self.attachEverything(
                to: keptGuest.idToken.subject, accessToken: keptGuest.response.accessToken, keyway, harness, tag: "kept")
            try await kept.upgradeGuest(identifier: "kept@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "kept@example.com"))
            let done = try #require(await keyway.flow.completion)
            _ = try await keyway.tokens.exchange(done)
            let before = try await Self.remnants(of: keptGuest.idToken.subject, server)
            let attached = try await Self.remnants(of: stale.idToken.subject, server)
            #expect(
                Set(attached.keys).isSuperset(of: [
                    "users WHERE id", "sessions WHERE user_id", "refresh_tokens WHERE user_id", "user_profiles WHERE user_id",
                    "trusted_devices WHERE user_id", "approval_requests WHERE user_id", "flows WHERE user_id",
                    "federated_identities WHERE user_id", "powerauth_activations WHERE user_id",
                    "powerauth_recovery_codes WHERE user_id", "sign_in_links",
                ]))
            let puks = try await server.rowCount("powerauth_recovery_puks")
            #expect(puks > 0)

            harness.clock.advance(by: 3_700)
            try await server.app.sweepNow()
            #expect(try await Self.remnants(of: stale.idToken.subject, server) == [:])
            #expect(try await server.rowCount("sign_in_links WHERE flow_id = 'flw_stale'") == 0)
            #expect(try await server.rowCount("approval_requests WHERE flow_id = 'flw_stale'") == 0)
            #expect(
                try await server.rowCount(
                    "powerauth_recovery_puks WHERE recovery_code_id NOT IN (SELECT id FROM powerauth_recovery_codes)") == 0)
            // The upgraded guest keeps everything: it is an account now.
            #expect(try await Self.remnants(of: keptGuest.idToken.subject, server) == before)
            #expect(try await server.rowCount("sign_in_links WHERE flow_id = 'flw_kept'") == 1)
            // Only the stale guest's postcard lost its PUKs.
            let keptPuks = try await server.rowCount("powerauth_recovery_puks")
            #expect(keptPuks > 0 && keptPuks < puks)
            let profile = try await keyway.tokenClient.profile(accessToken: try #require(await kept.accessToken()))
            #expect(profile.profile["displayName"] == .string("Guest kept"))
            #expect(try await server.admin("GET", "/admin/users/\(stale.idToken.subject)").status == 404)
        }
    }

    @Test func theGuestRateLimitIsCountedInTheDatabaseForEveryInstance() async throws {
        try await withTestServer(
            AdaptiveHarness.start(policy: GuestTests.policy(guests: ["enabled": true, "perAddressPerHour": 3]))
        ) { harness in
            let first = harness.server
            try await withTestServer(TestServer.start(database: first.database, clock: harness.clock)) { second in
                // Eight at once, on both instances: exactly three are made.
                let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<8 {
                        let instance = index.isMultiple(of: 2) ? first : second
                        group.addTask { try await Self.makeGuest(instance).status }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
                #expect(statuses.sorted() == [200, 200, 200, 429, 429, 429, 429, 429])
                // The address used its three guests of the hour, on whichever instance.
                for instance in [second, first] {
                    let refused = try await Self.makeGuest(instance)
                    #expect(refused.status == 429)
                    #expect(refused.json["code"] as? String == "rate_limited")
                    #expect(refused.json["action"] as? String == "wait")
                }
                #expect(try await first.rowCount("users WHERE is_anonymous = 1") == 3)
                // Another address has its own count.
                #expect(try await Self.makeGuest(second, from: "127.0.0.2").status == 200)
                harness.clock.advance(by: 3_601)
                #expect(try await Self.makeGuest(second).status == 200)
            }
        }
    }
}
