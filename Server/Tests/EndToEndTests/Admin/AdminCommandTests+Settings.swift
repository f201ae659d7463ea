import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// `keyway-server project update|show` for redirect URIs, scopes, DPoP and PAR, `project theme`
/// and `project registration-token`, as child processes.
extension AdminCommandTests {
    /// A fresh SQLite database file in a folder of its own.
    func freshDatabase() throws -> String {
        let database = TestServer.temporaryDatabase()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: database).deletingLastPathComponent(), withIntermediateDirectories: true)
        return database
    }

    @Test func updatesRedirectURIsScopesDPoPAndPAR() async throws {
        let database = try freshDatabase()
        let created = try json(try await run(["project", "create", "--name", "Native"], database: database).output)
        let configId = try #require(created["configId"] as? String)
        // A second application of the same project, and none of a project that does not exist.
        let projectId = try #require(created["projectId"] as? String)
        let sibling = try json(
            try await run(["project", "create", "--name", "Native admin", "--project", projectId], database: database).output)
        #expect(sibling["projectId"] as? String == projectId && sibling["configId"] as? String != configId)
        let lost = try await run(["project", "create", "--name", "Lost", "--project", "prj_nope"], database: database)
        #expect(lost.status == 1 && lost.errors.contains("No project has the ID prj_nope."))

        let updated = try await run(
            [
                "project", "update", configId, "--redirect-uri", "com.example.native:/cb", "--redirect-uri",
                "https://native.example.com/cb", "--post-logout-redirect-uri", "https://native.example.com/out",
                "--scope", "openid", "--scope", "offline_access", "--dpop", "required", "--dpop-nonce", "--require-par",
            ], database: database)
        #expect(updated.status == 0, "\(updated.errors)")
        let application = try json(updated.output)
        #expect(application["redirectUris"] as? [String] == ["com.example.native:/cb", "https://native.example.com/cb"])
        #expect(application["postLogoutRedirectUris"] as? [String] == ["https://native.example.com/out"])
        #expect(application["allowedScopes"] as? [String] == ["openid", "offline_access"])
        #expect(AdminApplicationSettingsTests.dpop(application) == ("required", true))
        #expect(application["requirePushedAuthorizationRequests"] as? Bool == true)

        let shown = try json(try await run(["project", "show", configId], database: database).output)
        #expect(NSDictionary(dictionary: shown) == NSDictionary(dictionary: application))
        #expect(shown["firstParty"] as? Bool == true)

        // Each refusal names its setting and changes nothing.
        for (arguments, field) in [
            (["--redirect-uri", "http://native.example.com/cb"], "redirectUris"),
            (["--post-logout-redirect-uri", "native.example.com/out"], "postLogoutRedirectUris"),
            (["--scope", "address"], "allowedScopes"),
            (["--dpop", "sometimes"], "dpop.mode"),
            (["--dpop", "off"], "dpop.requireNonce"),
        ] {
            let refused = try await run(["project", "update", configId] + arguments, database: database)
            #expect(refused.status == 1, "\(arguments): \(refused.output)")
            #expect(refused.errors.contains("\(field):"), "\(arguments): \(refused.errors)")
        }
        let unchanged = try json(try await run(["project", "show", configId], database: database).output)
        #expect(NSDictionary(dictionary: unchanged) == NSDictionary(dictionary: application))

        let cleared = try await run(
            [
                "project", "update", configId, "--no-redirect-uris", "--no-post-logout-redirect-uris", "--all-scopes",
                "--no-dpop-nonce", "--dpop", "off", "--no-require-par",
            ], database: database)
        #expect(cleared.status == 0, "\(cleared.errors)")
        let after = try json(cleared.output)
        #expect(after["redirectUris"] as? [String] == [] && after["postLogoutRedirectUris"] as? [String] == [])
        #expect(after["allowedScopes"] is NSNull)
        #expect(AdminApplicationSettingsTests.dpop(after) == ("off", false))
        #expect(after["requirePushedAuthorizationRequests"] as? Bool == false)

        let both = try await run(["project", "update", configId, "--scope", "openid", "--all-scopes"], database: database)
        #expect(both.status != 0 && both.errors.contains("not both"), "\(both.errors)")

        // PKCE or a nonce (the default), or neither: --require-pkce true|false.
        #expect(after["requirePkce"] as? Bool == true)
        let relaxed = try await run(["project", "update", configId, "--require-pkce", "false"], database: database)
        #expect(relaxed.status == 0, "\(relaxed.errors)")
        #expect(try json(relaxed.output)["requirePkce"] as? Bool == false)
        let strict = try await run(["project", "update", configId, "--require-pkce", "true"], database: database)
        #expect(strict.status == 0, "\(strict.errors)")
        #expect(try json(strict.output)["requirePkce"] as? Bool == true)
        let wrong = try await run(["project", "update", configId, "--require-pkce", "maybe"], database: database)
        #expect(wrong.status != 0)
    }

    @Test func grantsAndRevokesBackendRoles() async throws {
        let database = try freshDatabase()
        let created = try json(
            try await run(["project", "create", "--name", "Bank backend", "--confidential"], database: database).output)
        let configId = try #require(created["configId"] as? String)
        #expect(try json(try await run(["project", "show", configId], database: database).output)["backendRoles"] as? [String] == [])

        let granted = try await run(
            ["project", "update", configId, "--backend-role", "powerauth", "--backend-role", "introspection"], database: database)
        #expect(granted.status == 0, "\(granted.errors)")
        #expect(try json(granted.output)["backendRoles"] as? [String] == ["introspection", "powerauth"])

        let unknown = try await run(["project", "update", configId, "--backend-role", "root"], database: database)
        #expect(unknown.status == 1 && unknown.errors.contains("backendRoles:"), "\(unknown.errors)")
        let both = try await run(["project", "update", configId, "--backend-role", "powerauth", "--no-backend-roles"], database: database)
        #expect(both.status != 0 && both.errors.contains("not both"), "\(both.errors)")

        let revoked = try await run(["project", "update", configId, "--no-backend-roles"], database: database)
        #expect(revoked.status == 0, "\(revoked.errors)")
        #expect(try json(revoked.output)["backendRoles"] as? [String] == [])

        // A public application cannot be an app's backend.
        let mobile = try json(try await run(["project", "create", "--name", "Mobile"], database: database).output)
        let refused = try await run(
            ["project", "update", try #require(mobile["configId"] as? String), "--backend-role", "powerauth"], database: database)
        #expect(refused.status == 1 && refused.errors.contains("confidential"), "\(refused.errors)")
    }

    @Test func setsAndShowsAProjectsTheme() async throws {
        let database = try freshDatabase()
        let created = try json(try await run(["project", "create", "--name", "Acme"], database: database).output)
        let projectId = try #require(created["projectId"] as? String)

        let initial = try await run(["project", "theme", "--project", projectId], database: database)
        #expect(initial.status == 0, "\(initial.errors)")
        #expect(try json(initial.output)["name"] as? String == "Acme")

        let set = try await run(
            [
                "project", "theme", "--project", projectId, "--name", "Acme Notes", "--logo-url",
                "https://cdn.acme.example/logo.svg", "--primary-color", "#0B57D0", "--stylesheet-url",
                "https://cdn.acme.example/theme.css",
            ], database: database)
        #expect(set.status == 0, "\(set.errors)")
        let theme = try json(set.output)
        #expect(theme["name"] as? String == "Acme Notes")
        #expect(theme["primaryColor"] as? String == "#0b57d0")
        #expect(theme["logoUrl"] as? String == "https://cdn.acme.example/logo.svg")
        #expect(theme["stylesheetUrl"] as? String == "https://cdn.acme.example/theme.css")
        let shown = try json(try await run(["project", "theme", "--project", projectId], database: database).output)
        #expect(NSDictionary(dictionary: shown) == NSDictionary(dictionary: theme))

        let refused = try await run(
            ["project", "theme", "--project", projectId, "--logo-url", "http://cdn.acme.example/logo.svg"], database: database)
        #expect(refused.status == 1 && refused.errors.contains("logoUrl:"), "\(refused.errors)")
        let badColor = try await run(["project", "theme", "--project", projectId, "--primary-color", "teal"], database: database)
        #expect(badColor.status == 1 && badColor.errors.contains("primaryColor:"), "\(badColor.errors)")

        let removed = try json(
            try await run(["project", "theme", "--project", projectId, "--no-logo-url"], database: database).output)
        #expect(removed["logoUrl"] == nil && removed["primaryColor"] as? String == "#0b57d0")
        let unknown = try await run(["project", "theme", "--project", "prj_nope"], database: database)
        #expect(unknown.status == 1 && unknown.errors.contains("No project has the ID prj_nope."))
    }

    /// `project profile-schema`: shown, replaced from a file (all or nothing), shown again.
    @Test func setsAndShowsAProjectsProfileSchema() async throws {
        let database = try freshDatabase()
        let created = try json(try await run(["project", "create", "--name", "Profiles"], database: database).output)
        let projectId = try #require(created["projectId"] as? String)
        let initial = try await run(["project", "profile-schema", "--project", projectId], database: database)
        #expect(initial.status == 0, "\(initial.errors)")
        #expect((try json(initial.output)["fields"] as? [Any])?.isEmpty == true)

        let folder = URL(fileURLWithPath: database).deletingLastPathComponent()
        let good = folder.appendingPathComponent("schema.json")
        try Data(#"{"fields": [{"name": "given_name", "type": "string", "maxLength": 80}, {"name": "age", "type": "number"}]}"#.utf8)
            .write(to: good)
        let set = try await run(["project", "profile-schema", "--project", projectId, "--file", good.path], database: database)
        #expect(set.status == 0, "\(set.errors)")
        let fields = try #require(try json(set.output)["fields"] as? [[String: Any]])
        #expect(fields.map { $0["name"] as? String } == ["given_name", "age"])
        #expect(fields.first?["maxLength"] as? Int == 80 && fields.last?["required"] as? Bool == false)

        let bad = folder.appendingPathComponent("bad.json")
        try Data(#"{"fields": [{"name": "Bad Name", "type": "string"}, {"name": "pin", "type": "number", "encrypted": true}]}"#.utf8)
            .write(to: bad)
        let refused = try await run(["project", "profile-schema", "--project", projectId, "--file", bad.path], database: database)
        #expect(refused.status == 1 && refused.errors.contains("Bad Name:") && refused.errors.contains("pin:"), "\(refused.errors)")
        let shown = try json(try await run(["project", "profile-schema", "--project", projectId], database: database).output)
        #expect((shown["fields"] as? [[String: Any]])?.count == 2)
        let notJSON = folder.appendingPathComponent("not.json")
        try Data("name,type".utf8).write(to: notJSON)
        let unreadable = try await run(["project", "profile-schema", "--project", projectId, "--file", notJSON.path], database: database)
        #expect(unreadable.status != 0 && unreadable.errors.contains("is not a profile schema"), "\(unreadable.errors)")
        let unknown = try await run(["project", "profile-schema", "--project", "prj_nope"], database: database)
        #expect(unknown.status == 1 && unknown.errors.contains("No project has the ID prj_nope."))
    }

    @Test func issuesListsAndRevokesRegistrationTokens() async throws {
        let database = try freshDatabase()
        let created = try json(try await run(["project", "create", "--name", "Template"], database: database).output)
        let configId = try #require(created["configId"] as? String)

        let issued = try await run(
            ["project", "registration-token", "issue", configId, "--expires-in", "3600"], database: database)
        #expect(issued.status == 0, "\(issued.errors)")
        let token = try json(issued.output)
        let secret = try #require(token["token"] as? String)
        let tokenId = try #require(token["id"] as? String)
        #expect(secret.hasPrefix("kit_") && token["expiresAt"] as? String != nil)

        let listed = try await run(["project", "registration-token", "list", configId], database: database)
        #expect(listed.status == 0)
        #expect(!listed.output.contains(secret))
        let tokens = try #require(try json(listed.output)["registrationTokens"] as? [[String: Any]])
        #expect(tokens.map { $0["id"] as? String } == [tokenId])
        #expect(tokens.first?["registeredClients"] as? Int == 0)

        let revoked = try await run(["project", "registration-token", "revoke", configId, tokenId], database: database)
        #expect(revoked.status == 0 && revoked.output.contains(tokenId), "\(revoked.errors)")
        #expect((try json(try await run(["project", "registration-token", "list", configId], database: database).output)[
            "registrationTokens"] as? [Any])?.isEmpty == true)
        let again = try await run(["project", "registration-token", "revoke", configId, tokenId], database: database)
        #expect(again.status == 1 && again.errors.contains(tokenId))
        let tooLong = try await run(
            ["project", "registration-token", "issue", configId, "--expires-in", "99999999"], database: database)
        #expect(tooLong.status == 1 && tooLong.errors.contains("expiresInSeconds:"))
    }
}
