import Foundation
import KeywayProtocol
import SQLKit

/// Projects and their applications.
struct ApplicationRepository: Sendable {
    let sql: any SQLDatabase

    func insertProject(id: String, name: String, isDev: Bool, createdAt: Int64) async throws {
        try await sql.raw(
            """
            INSERT INTO projects (id, name, is_dev, created_at)
            VALUES (\(bind: id), \(bind: name), \(bind: Int64(isDev ? 1 : 0)), \(bind: createdAt))
            """
        ).run()
    }

    func devProjectId() async throws -> String? {
        try await sql.raw("SELECT id FROM projects WHERE is_dev = 1 ORDER BY created_at LIMIT 1").first()?
            .decode(column: "id", as: String.self)
    }

    /// The dev project's ID, creating the project on first use.
    func ensureDevProject(createdAt: Int64) async throws -> String {
        if let existing = try await devProjectId() { return existing }
        let id = SecureRandom.identifier(prefix: "prj")
        try await insertProject(id: id, name: "Development", isDev: true, createdAt: createdAt)
        return id
    }

    func insert(_ application: ApplicationRecord) async throws {
        let flowTypes = application.flowTypes.map(\.rawValue).sorted().joined(separator: " ")
        try await sql.raw(
            """
            INSERT INTO applications (id, project_id, config_id, name, client_type, client_secret_hash,
                flow_types, auto_create_users, is_dev, created_at, refresh_absolute_ms, refresh_idle_ms,
                refresh_grace_ms, dpop_mode, dpop_require_nonce, auth_method, assertion_alg, client_secret_salt,
                jwks, grant_types, template_id, id_token_signed_response_alg, allowed_scopes, require_par,
                first_party, backend_roles, require_pkce, client_links)
            VALUES (\(bind: application.id), \(bind: application.projectId), \(bind: application.configId),
                \(bind: application.name), \(bind: application.clientType.rawValue),
                \(bind: application.clientSecretHash), \(bind: flowTypes),
                \(bind: Int64(application.autoCreateUsers ? 1 : 0)), \(bind: Int64(application.isDev ? 1 : 0)),
                \(bind: application.createdAt), \(bind: application.refreshTokens.map { Self.millis($0.absoluteLifetime) }),
                \(bind: application.refreshTokens.map { Self.millis($0.idleLifetime) }),
                \(bind: application.refreshTokens.map { Self.millis($0.reuseGracePeriod) }),
                \(bind: application.dpop.mode.rawValue), \(bind: Int64(application.dpop.requireNonce ? 1 : 0)),
                \(bind: application.authMethod?.rawValue), \(bind: application.assertionAlgorithm),
                \(bind: application.clientSecretSalt), \(bind: try application.jwks.map(Self.encodeKeys)),
                \(bind: application.grantTypes.map { $0.sorted().joined(separator: " ") }),
                \(bind: application.templateId), \(bind: application.idTokenAlgorithm.rawValue),
                \(bind: application.allowedScopes.map { $0.sorted().joined(separator: " ") }),
                \(bind: Int64(application.requirePAR ? 1 : 0)), \(bind: Int64(application.firstParty ? 1 : 0)),
                \(bind: BackendRole.stored(application.backendRoles)), \(bind: Int64(application.requirePkce ? 1 : 0)),
                \(bind: try application.links.map(Self.encodeLinks)))
            """
        ).run()
    }

    func find(configId: String) async throws -> ApplicationRecord? {
        try await sql.raw("SELECT * FROM applications WHERE config_id = \(bind: configId)").first().map(Self.decode)
    }

    func find(id: String) async throws -> ApplicationRecord? {
        try await sql.raw("SELECT * FROM applications WHERE id = \(bind: id)").first().map(Self.decode)
    }

    /// Every application, oldest first.
    func all() async throws -> [ApplicationRecord] {
        try await sql.raw("SELECT * FROM applications ORDER BY created_at, config_id").all().map(Self.decode)
    }

    /// The applications of a project, oldest first.
    func all(projectId: String) async throws -> [ApplicationRecord] {
        try await sql.raw(
            "SELECT * FROM applications WHERE project_id = \(bind: projectId) ORDER BY created_at, config_id"
        ).all().map(Self.decode)
    }

    /// Sets the algorithm the application's ID tokens are signed with.
    func setIDTokenAlgorithm(_ algorithm: SigningAlgorithm, id: String) async throws {
        try await sql.raw(
            "UPDATE applications SET id_token_signed_response_alg = \(bind: algorithm.rawValue) WHERE id = \(bind: id)"
        ).run()
    }

    /// Sets the scopes the application may ask for (`nil`: every supported scope).
    func setAllowedScopes(_ scopes: Set<String>?, id: String) async throws {
        let text = scopes.map { $0.sorted().joined(separator: " ") }
        try await sql.raw("UPDATE applications SET allowed_scopes = \(bind: text) WHERE id = \(bind: id)").run()
    }

    /// Sets whether the authorization endpoint takes only pushed requests for the application.
    func setRequirePAR(_ required: Bool, id: String) async throws {
        try await sql.raw(
            "UPDATE applications SET require_par = \(bind: Int64(required ? 1 : 0)) WHERE id = \(bind: id)"
        ).run()
    }

    /// Sets whether a confidential client's authorization requests need PKCE or a nonce.
    func setRequirePkce(_ required: Bool, id: String) async throws {
        try await sql.raw(
            "UPDATE applications SET require_pkce = \(bind: Int64(required ? 1 : 0)) WHERE id = \(bind: id)"
        ).run()
    }

    /// Replaces the application's backend roles.
    func setBackendRoles(_ roles: Set<BackendRole>, id: String) async throws {
        try await sql.raw(
            "UPDATE applications SET backend_roles = \(bind: BackendRole.stored(roles)) WHERE id = \(bind: id)"
        ).run()
    }

    /// Sets the application's DPoP policy.
    func setDPoP(_ policy: DPoPPolicy, id: String) async throws {
        try await sql.raw(
            """
            UPDATE applications SET dpop_mode = \(bind: policy.mode.rawValue),
                dpop_require_nonce = \(bind: Int64(policy.requireNonce ? 1 : 0))
            WHERE id = \(bind: id)
            """
        ).run()
    }

    /// The project's hosted-page theme, as stored JSON.
    func theme(projectId: String) async throws -> String? {
        try await sql.raw("SELECT theme FROM projects WHERE id = \(bind: projectId)").first()?
            .decode(column: "theme", as: String?.self)
    }

    /// Replaces the project's hosted-page theme (`nil`: the default look).
    func setTheme(_ json: String?, projectId: String) async throws {
        try await sql.raw("UPDATE projects SET theme = \(bind: json) WHERE id = \(bind: projectId)").run()
    }

    /// The project's name; `nil` when there is no such project.
    func projectName(id: String) async throws -> String? {
        try await sql.raw("SELECT name FROM projects WHERE id = \(bind: id)").first()?
            .decode(column: "name", as: String.self)
    }

    func setFlowTypes(_ flowTypes: Set<FlowType>, id: String) async throws {
        let text = flowTypes.map(\.rawValue).sorted().joined(separator: " ")
        try await sql.raw("UPDATE applications SET flow_types = \(bind: text) WHERE id = \(bind: id)").run()
    }

    func firstDevApplication() async throws -> ApplicationRecord? {
        try await sql.raw("SELECT * FROM applications WHERE is_dev = 1 ORDER BY created_at LIMIT 1").first()
            .map(Self.decode)
    }

    private static func encodeKeys(_ keys: JSONWebKeySet) throws -> String {
        String(decoding: try JSONEncoder().encode(keys), as: UTF8.self)
    }

    private static func millis(_ interval: Double) -> Int64 { Int64((interval * 1000).rounded()) }

    private static func decode(_ row: any SQLRow) throws -> ApplicationRecord {
        let clientType = try row.decode(column: "client_type", as: String.self)
        let flowTypes = try row.decode(column: "flow_types", as: String.self)
        var refreshTokens: RefreshTokenPolicy?
        if let absolute = try row.decode(column: "refresh_absolute_ms", as: Int64?.self),
            let idle = try row.decode(column: "refresh_idle_ms", as: Int64?.self),
            let grace = try row.decode(column: "refresh_grace_ms", as: Int64?.self)
        {
            refreshTokens = RefreshTokenPolicy(
                absoluteLifetime: Double(absolute) / 1000, idleLifetime: Double(idle) / 1000,
                reuseGracePeriod: Double(grace) / 1000)
        }
        return ApplicationRecord(
            id: try row.decode(column: "id", as: String.self),
            projectId: try row.decode(column: "project_id", as: String.self),
            configId: try row.decode(column: "config_id", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            clientType: ApplicationRecord.ClientType(rawValue: clientType) ?? .confidential,
            clientSecretHash: try row.decode(column: "client_secret_hash", as: String?.self),
            flowTypes: Set(flowTypes.split(separator: " ").map { FlowType(rawValue: String($0)) }),
            autoCreateUsers: try row.decode(column: "auto_create_users", as: Int64.self) != 0,
            isDev: try row.decode(column: "is_dev", as: Int64.self) != 0,
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            refreshTokens: refreshTokens,
            dpop: DPoPPolicy(
                mode: DPoPPolicy.Mode(rawValue: try row.decode(column: "dpop_mode", as: String.self)) ?? .required,
                requireNonce: try row.decode(column: "dpop_require_nonce", as: Int64.self) != 0),
            authMethod: try row.decode(column: "auth_method", as: String?.self).flatMap(ClientAuthMethod.init(rawValue:)),
            assertionAlgorithm: try row.decode(column: "assertion_alg", as: String?.self),
            clientSecretSalt: try row.decode(column: "client_secret_salt", as: String?.self),
            jwks: try row.decode(column: "jwks", as: String?.self).map {
                try JSONDecoder().decode(JSONWebKeySet.self, from: Data($0.utf8))
            },
            grantTypes: try row.decode(column: "grant_types", as: String?.self).map {
                Set($0.split(separator: " ").map(String.init))
            },
            templateId: try row.decode(column: "template_id", as: String?.self),
            // NULL: an application from before the choice, signed with ES256 as it always was.
            idTokenAlgorithm: try row.decode(column: "id_token_signed_response_alg", as: String?.self)
                .flatMap(SigningAlgorithm.init(rawValue:)) ?? .es256,
            allowedScopes: try row.decode(column: "allowed_scopes", as: String?.self).map {
                Set($0.split(separator: " ").map(String.init))
            },
            requirePAR: try row.decode(column: "require_par", as: Int64.self) != 0,
            requirePkce: try row.decode(column: "require_pkce", as: Int64.self) != 0,
            firstParty: try row.decode(column: "first_party", as: Int64.self) != 0,
            backendRoles: BackendRole.parse(try row.decode(column: "backend_roles", as: String.self)),
            links: try row.decode(column: "client_links", as: String?.self).map {
                try JSONDecoder().decode(ClientLinks.self, from: Data($0.utf8))
            })
    }

    /// A client's links as stored: their JSON.
    static func encodeLinks(_ links: ClientLinks) throws -> String {
        String(decoding: try JSONEncoder().encode(links), as: UTF8.self)
    }
}
