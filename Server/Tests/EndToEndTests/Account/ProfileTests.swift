import Crypto
import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("User profile: schema, validation, client-side encrypted fields")
struct ProfileTests {
    let schema = [
        ProfileFieldDefinition(name: "displayName", type: .string, required: true, maxLength: 40),
        ProfileFieldDefinition(name: "age", type: .number),
        ProfileFieldDefinition(name: "newsletter", type: .boolean),
        ProfileFieldDefinition(name: "taxId", type: .string, encrypted: true),
    ]

    /// Runs `body` with a server that has the profile schema, an SDK and the tokens of `email`'s
    /// sign-in; stops the server after.
    func withSignedIn(_ email: String, _ body: (TestServer, KeywayClient, TokenSet) async throws -> Void) async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            try await server.app.setProfileSchema(schema)
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: email)
            await keyway.flow.submitCode(try await server.latestCode(to: email))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!)
            try await body(server, keyway, tokens)
        }
    }

    @Test func profileRoundTripWithAnEncryptedField() async throws {
        try await withSignedIn("profile@example.com") { server, keyway, tokens in
            let token = tokens.response.accessToken
            let empty = try await keyway.tokenClient.profile(accessToken: token)
            #expect(empty.profile.isEmpty)
            #expect(empty.schema == schema)
            #expect(empty.email == "profile@example.com")

            let cipher = try ProfileCipher(key: SymmetricKey(size: .bits256))
            let sealed = try cipher.seal("DE-123-456-789")
            let saved = try await keyway.tokenClient.updateProfile(
                accessToken: token,
                changes: ["displayName": .string("Ada"), "age": .number(36), "newsletter": .bool(true), "taxId": .string(sealed)])
            #expect(saved.profile["displayName"] == .string("Ada"))
            let read = try await keyway.tokenClient.profile(accessToken: token)
            #expect(read.profile == saved.profile)
            guard case .string(let stored)? = read.profile["taxId"] else { Issue.record("no taxId"); return }
            #expect(try cipher.open(stored) == "DE-123-456-789")
            // The server holds only ciphertext.
            await server.stop()
            if let path = server.databaseFile {
                let file = try Data(contentsOf: URL(fileURLWithPath: path))
                let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
                #expect(!(file + wal).contains(Data("DE-123-456-789".utf8)))
                #expect((file + wal).contains(Data("Ada".utf8)))
            } else {
                #expect(try await server.rowCount("user_profiles WHERE data LIKE '%DE-123-456-789%'") == 0)
                #expect(try await server.rowCount("user_profiles WHERE data LIKE '%Ada%'") == 1)
            }
        }
    }

    @Test func invalidUpdatesAreRefusedWholeAndNamed() async throws {
        try await withSignedIn("invalid@example.com") { server, keyway, tokens in
            let token = tokens.response.accessToken
            _ = try await keyway.tokenClient.updateProfile(accessToken: token, changes: ["displayName": .string("Grace"), "age": .number(40)])

            await #expect {
                _ = try await keyway.tokenClient.updateProfile(
                    accessToken: token,
                    changes: [
                        "displayName": .string(String(repeating: "x", count: 41)), "age": .string("forty"),
                        "taxId": .string("plaintext"), "shoeSize": .number(9), "newsletter": .bool(false),
                    ])
            } throws: { error in
                guard case KeywayError.problem(let problem) = error else { return false }
                let names = Set(problem.invalidFields?.map(\.name) ?? [])
                return problem.status == 400
                    && names == ["profile.displayName", "profile.age", "profile.taxId", "profile.shoeSize"]
            }
            // Nothing of the refused update was saved, not even its valid field.
            let unchanged = try await keyway.tokenClient.profile(accessToken: token)
            #expect(unchanged.profile == ["displayName": .string("Grace"), "age": .number(40)])

            // null removes an optional field, and may not remove a required one.
            let removed = try await keyway.tokenClient.updateProfile(accessToken: token, changes: ["age": nil])
            #expect(removed.profile == ["displayName": .string("Grace")])
            await #expect(throws: KeywayError.self) {
                _ = try await keyway.tokenClient.updateProfile(accessToken: token, changes: ["displayName": nil])
            }

            // Malformed JSON and missing credentials.
            let malformed = try await server.request(
                "PATCH", "/v1/me",
                headers: ["Authorization": "Bearer \(token.revealed)", "Content-Type": "application/json"],
                body: Data("{\"profile\": 5}".utf8))
            #expect(malformed.status == 400)
            #expect(try await server.request("GET", "/v1/me").status == 401)
        }
    }

    @Test func invalidSchemasAreRefused() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            for bad in [
                [ProfileFieldDefinition(name: "Bad Name", type: .string)],
                [ProfileFieldDefinition(name: "pin", type: .number, encrypted: true)],
                [ProfileFieldDefinition(name: "a", type: .string), ProfileFieldDefinition(name: "a", type: .number)],
                [ProfileFieldDefinition(name: "a", type: .string, maxLength: 0)],
            ] {
                await #expect(throws: ConfigurationError.self) { try await server.app.setProfileSchema(bad) }
            }
        }
    }

    @Test func theUserFacadeEncryptsOnTheDeviceAndNeedsTheKeyToRead() async throws {
        try await withSignedIn("facade@example.com") { server, keyway, tokens in
            let phone = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            try await phone.save(tokens)
            let events = Collector(keyway.events)

            let saved = try await phone.user.set(["displayName": .string("Ada"), "taxId": .string("DE-987-654")])
            #expect(saved == ["displayName": .string("Ada"), "taxId": .string("DE-987-654")])
            #expect(try await phone.user.get(field: "taxId") == .string("DE-987-654"))
            try await phone.user.set(field: "age", value: .number(36))
            #expect(try await phone.user.get()["age"] == .number(36))
            // The observable state carries the profile, opened.
            #expect(phone.state.snapshot.user.data["displayName"] == "Ada")
            #expect(phone.state.snapshot.user.data["taxId"] == "DE-987-654")
            #expect(phone.state.snapshot.user.data["age"] == "36")
            // The profile-saved events name fields, never values.
            let saves = await events.wait(for: 2).filter { $0.name == .userDataSaved }
            #expect(saves.map { $0.data["fields"] } == ["displayName,taxId", "age"])
            events.cancel()

            // Another device of the same user, without the key: a clear error, never ciphertext or a new key.
            let completion: (Sensitive<String>, Sensitive<String>) = try await {
                let tablet = try makeKeyway(server, clock: ManualClock())
                await tablet.flow.start(identifier: "facade@example.com")
                await tablet.flow.submitCode(try await server.latestCode(to: "facade@example.com"))
                let done = try #require(tablet.flow.currentUpdate.completion)
                return (done.authCode, try #require(done.codeVerifier))
            }()
            let tabletKeyway = try makeKeyway(server, clock: ManualClock())
            let tablet = KeywaySession(keyway: tabletKeyway, storage: InMemorySecureStorage())
            try await tablet.save(try await tabletKeyway.tokens.exchange(authCode: completion.0, codeVerifier: completion.1))
            await #expect(throws: UserProfileError.encryptionKeyMissing(field: "taxId")) { _ = try await tablet.user.get() }
            await #expect(throws: UserProfileError.encryptionKeyMissing(field: "taxId")) {
                try await tablet.user.set(field: "taxId", value: .string("XX"))
            }
            #expect(try await tablet.user.get(field: "displayName") == .string("Ada"))
            // A wrong key does not open it either.
            try await tablet.user.importEncryptionKey(SymmetricKey(size: .bits256))
            await #expect(throws: UserProfileError.encryptionKeyMismatch(field: "taxId")) { _ = try await tablet.user.get() }
            // With the user's key moved over, it reads.
            try await tablet.user.importEncryptionKey(try #require(try await phone.user.exportEncryptionKey()))
            #expect(try await tablet.user.get(field: "taxId") == .string("DE-987-654"))

            await #expect(throws: UserProfileError.unknownField("shoeSize")) { try await phone.user.set(field: "shoeSize", value: .number(9)) }
            await #expect(throws: UserProfileError.encryptedFieldNeedsString("taxId")) {
                try await phone.user.set(field: "taxId", value: .number(1))
            }

            // The server holds only ciphertext.
            await server.stop()
            if let path = server.databaseFile {
                let file = try Data(contentsOf: URL(fileURLWithPath: path))
                let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
                #expect(!(file + wal).contains(Data("DE-987-654".utf8)))
            } else {
                #expect(try await server.rowCount("user_profiles WHERE data LIKE '%DE-987-654%'") == 0)
            }
        }
    }

    /// With the `profile` scope, UserInfo gives the standard claims the schema defines as plain
    /// strings; a field of another name, type or an encrypted one never; without the scope, none.
    @Test func theProfileScopeGivesTheStandardClaimsAtUserInfo() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            try await server.app.setProfileSchema([
                ProfileFieldDefinition(name: "given_name", type: .string),
                ProfileFieldDefinition(name: "locale", type: .string),
                ProfileFieldDefinition(name: "nickname", type: .string, encrypted: true),
                ProfileFieldDefinition(name: "displayName", type: .string),
            ])
            let keyway = try makeKeyway(server, clock: clock)
            func signIn(scope: String) async throws -> TokenSet {
                await keyway.flow.start(identifier: "claims@example.com", options: FlowStartOptions(scope: scope))
                await keyway.flow.submitCode(try await server.latestCode(to: "claims@example.com"))
                let completion = try #require(keyway.flow.currentUpdate.completion)
                return try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!)
            }
            let withProfile = try await signIn(scope: "openid email profile")
            let cipher = try ProfileCipher(key: SymmetricKey(size: .bits256))
            _ = try await keyway.tokenClient.updateProfile(
                accessToken: withProfile.response.accessToken,
                changes: [
                    "given_name": .string("Ada"), "locale": .string("en-GB"), "nickname": .string(try cipher.seal("Countess")),
                    "displayName": .string("Ada L."),
                ])
            let info = try await keyway.tokenClient.userInfo(accessToken: withProfile.response.accessToken)
            #expect(info.profile == ["given_name": "Ada", "locale": "en-GB"])
            #expect(info.email == "claims@example.com")
            // The ID token of the code flow carries none of them (OpenID Connect Core §5.4).
            let idToken = try #require(withProfile.response.idToken?.revealed)
            let idClaims = Self.payload(of: idToken)
            #expect(idClaims["email"] as? String == "claims@example.com" && idClaims["given_name"] == nil)

            let withoutProfile = try await signIn(scope: "openid email")
            let bare = try await keyway.tokenClient.userInfo(accessToken: withoutProfile.response.accessToken)
            #expect(bare.profile.isEmpty && bare.email == "claims@example.com")
        }
    }

    /// The claims of a JWT's payload.
    static func payload(of jwt: String) -> [String: Any] {
        let part = jwt.split(separator: ".").dropFirst().first.map(String.init) ?? ""
        guard let bytes = Base64URL.decode(part) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
    }
}
