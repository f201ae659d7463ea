import Foundation
import KeywayProtocol
import Logging

/// The administration of applications, their policies, invite codes, start tokens and users:
/// pure logic over the database, used by the admin HTTP routes (``AdminRoutes``) and by the
/// `keyway-server project …` and `keyway-server admin …` subcommands.
///
/// Every change is one write transaction: a failed call leaves nothing behind.
package struct AdminService: Sendable {
    /// Default lifetime of an invite code: 7 days.
    package static let defaultInviteLifetime = 7 * 86_400
    /// Longest lifetime of an invite code: one year.
    package static let maximumInviteLifetime = 366 * 86_400
    /// Default lifetime of a start token: 10 minutes.
    package static let defaultStartTokenLifetime = 600
    /// Longest lifetime of a start token: one hour.
    package static let maximumStartTokenLifetime = 3600

    let database: any Database
    let clock: any ServerClock
    /// Whether policies are validated for dev mode (SMS without a webhook goes to the dev outbox).
    package let devMode: Bool
    /// The token lifetimes: a retired signing key stays published as long as its tokens live.
    let tokenLifetimes: TokenLifetimes
    /// The key new signing keys are sealed with; `nil` when it was not given (rotation then refuses).
    let masterKey: MasterKey?
    /// The server's method modules: policies may list theirs, and a user's are listed.
    let methods: MethodRegistry

    init(
        database: any Database, clock: any ServerClock, devMode: Bool, tokenLifetimes: TokenLifetimes = TokenLifetimes(),
        masterKey: MasterKey? = nil, methods: MethodRegistry = .standard
    ) {
        self.methods = methods
        self.database = database
        self.clock = clock
        self.devMode = devMode
        self.tokenLifetimes = tokenLifetimes
        self.masterKey = masterKey
    }

    /// Opens the database at `location` (creating it and applying migrations as the server
    /// does). Call ``close()`` when done.
    ///
    /// - Parameter masterKey: The key the secrets at rest are sealed with; needed to rotate
    ///   signing keys and to rewrap. `nil`: the dev key file beside a SQLite database, when it exists.
    package static func open(
        _ location: DatabaseLocation, devMode: Bool, clock: any ServerClock = SystemClock(), masterKey: MasterKey? = nil,
        logger: Logger
    ) async throws -> AdminService {
        let database = try await location.open(poolSize: 2, readerCount: 1, logger: logger)
        do {
            try await Migrations.apply(to: database, now: clock.now())
        } catch {
            await Task { await database.shutdown() }.value
            throw error
        }
        var key = masterKey
        if key == nil, case .sqlite(let path) = location {
            let devKey = MasterKey.devPath(besideSQLite: path)
            if FileManager.default.fileExists(atPath: devKey) { key = try MasterKey.read(path: devKey) }
        }
        return AdminService(database: database, clock: clock, devMode: devMode, masterKey: key)
    }

    /// Seals every secret at rest anew under `newKey`; afterwards only `newKey` opens them (restart
    /// the servers with it). Returns how many secrets were sealed.
    ///
    /// - Throws: ``AdminError/invalidInput(field:message:)`` without the current master key.
    package func rewrapSecrets(to newKey: MasterKey) async throws -> Int {
        guard let masterKey else {
            throw AdminError.invalidInput(field: "masterKey", message: "Give the current master key to rewrap the secrets.")
        }
        return try await SecretsAtRest.rewrap(in: database, from: masterKey, to: newKey)
    }

    /// Closes the database opened by ``open(_:devMode:clock:logger:)``.
    package func close() async {
        let database = self.database
        await Task { await database.shutdown() }.value
    }

    // MARK: Applications

    /// Every application, oldest first.
    package func listApplications() async throws -> [AdminApplication] {
        try await database.read { repositories in
            var applications: [AdminApplication] = []
            for application in try await repositories.applications.all() {
                applications.append(try await Self.resource(application, in: repositories))
            }
            return applications
        }
    }

    /// Creates a project named after the application, and the application in it (flow type
    /// `signin`, users created on first verified sign-in, the default policy). A confidential
    /// application's client secret is returned this once.
    package func createApplication(
        name rawName: String, clientType rawClientType: String = "public", projectId existingProject: String? = nil
    ) async throws -> CreatedApplication {
        let name = rawName.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100 else {
            throw AdminError.invalidInput(field: "name", message: "An application needs a name of 1 to 100 characters.")
        }
        guard let clientType = ApplicationRecord.ClientType(rawValue: rawClientType) else {
            throw AdminError.invalidInput(field: "clientType", message: "The client type must be public or confidential.")
        }
        let now = clock.now().epochMilliseconds
        let configId = "cfg_\(SecureRandom.identifier(prefix: "").dropFirst())"
        let projectId = existingProject ?? SecureRandom.identifier(prefix: "prj")
        let secret = clientType == .confidential ? SecureRandom.token(prefix: "kcs") : nil
        try await database.write { repositories in
            if let existingProject {
                guard try await repositories.applications.projectName(id: existingProject) != nil else {
                    throw AdminError.projectNotFound(projectId: existingProject)
                }
            } else {
                try await repositories.applications.insertProject(id: projectId, name: name, isDev: false, createdAt: now)
            }
            try await repositories.applications.insert(
                ApplicationRecord(
                    id: SecureRandom.identifier(prefix: "app"), projectId: projectId, configId: configId, name: name,
                    clientType: clientType, clientSecretHash: secret.map(sha256Hex), flowTypes: [.signin],
                    autoCreateUsers: true, isDev: false, createdAt: now))
        }
        return CreatedApplication(
            configId: configId, name: name, clientType: clientType.rawValue, projectId: projectId, clientSecret: secret)
    }

    // MARK: Policies

    /// The application's policy as the admin API shows it: webhook signing secrets masked.
    package func policy(configId: String) async throws -> ApplicationPolicy {
        try await database.read { repositories in
            guard let application = try await repositories.applications.find(configId: configId),
                let policy = try await repositories.policies.policy(applicationId: application.id)
            else { throw AdminError.applicationNotFound(configId: configId) }
            return policy.masked
        }
    }

    /// The policy of the application with this (internal) ID, secrets included; `nil` when
    /// there is no such application. For the flow engine; inside a transaction use
    /// `repositories.policies.policy(applicationId:)`.
    func policy(applicationId: String) async throws -> ApplicationPolicy? {
        try await database.read { try await $0.policies.policy(applicationId: applicationId) }
    }

    /// Replaces the application's policy after validating it, and sets the application's flow
    /// types to the policy's, in one transaction. A webhook whose signing secret is the mask
    /// (as `GET` shows it) keeps the stored secret of that channel. Returns the saved policy,
    /// masked.
    package func setPolicy(_ submitted: ApplicationPolicy, configId: String) async throws -> ApplicationPolicy {
        let now = clock.now().epochMilliseconds
        let devMode = self.devMode
        return try await database.write { repositories in
            guard let application = try await repositories.applications.find(configId: configId),
                let current = try await repositories.policies.policy(applicationId: application.id)
            else { throw AdminError.applicationNotFound(configId: configId) }
            var policy = submitted
            if policy.delivery.sms?.signingSecret == WebhookSettings.maskedSecret, let stored = current.delivery.sms {
                policy.delivery.sms?.signingSecret = stored.signingSecret
            }
            if policy.delivery.email?.signingSecret == WebhookSettings.maskedSecret,
                let stored = current.delivery.email
            {
                policy.delivery.email?.signingSecret = stored.signingSecret
            }
            if policy.delivery.events?.signingSecret == WebhookSettings.maskedSecret,
                let stored = current.delivery.events
            {
                policy.delivery.events?.signingSecret = stored.signingSecret
            }
            do throws(PolicyError) {
                try policy.validate(devMode: devMode, methods: methods)
            } catch {
                throw AdminError.invalidPolicy(error)
            }
            let known = Set(try await repositories.identityProviders.all(projectId: application.projectId).map(\.id))
            let unknown = FederationSettings.unknownProviders(policy.federation.providers, known: known)
            if !unknown.isEmpty { throw AdminError.invalidPolicy(PolicyError(problems: unknown)) }
            try await repositories.policies.setPolicy(policy, applicationId: application.id, at: now)
            return policy.masked
        }
    }

    // MARK: Invite codes

    /// Issues a single-use sign-up invite code for the application, valid for
    /// `expiresInSeconds` (default 7 days, at most a year). Stored only as a hash.
    package func createInviteCode(configId: String, expiresInSeconds: Int? = nil) async throws -> IssuedInviteCode {
        let lifetime = expiresInSeconds ?? Self.defaultInviteLifetime
        guard (1...Self.maximumInviteLifetime).contains(lifetime) else {
            throw AdminError.invalidInput(
                field: "expiresInSeconds",
                message: "An invite code lives between 1 second and \(Self.maximumInviteLifetime) seconds (a year).")
        }
        let now = clock.now().epochMilliseconds
        let expiresAt = now + Int64(lifetime) * 1000
        let code = SecureRandom.identifier(prefix: "inv")
        try await database.write { repositories in
            guard let application = try await repositories.applications.find(configId: configId) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            try await repositories.inviteCodes.insert(
                hash: sha256Hex(code), applicationId: application.id, createdAt: now, expiresAt: expiresAt)
        }
        return IssuedInviteCode(code: code, expiresAt: Date(epochMilliseconds: expiresAt))
    }

    /// Redeems an invite code of the application (by its internal ID) for `userId`, in a
    /// transaction of its own. Inside the engine's own transaction use
    /// `repositories.inviteCodes.redeem(applicationId:code:userId:now:)` instead.
    package func redeemInviteCode(applicationId: String, code: String, userId: String, now: Date) async throws
        -> InviteCodeRedemption
    {
        try await database.write { repositories in
            try await repositories.inviteCodes.redeem(
                applicationId: applicationId, code: code, userId: userId, now: now.epochMilliseconds)
        }
    }

    // MARK: Start tokens

    /// Issues a single-use start token for a flow of `flowType` for `identifier` (an email
    /// address or E.164 phone number, stored normalized), valid for `expiresInSeconds`
    /// (default 600, at most 3600). The flow type must be open for the application.
    package func createStartToken(
        configId: String, flowType: FlowType, identifier rawIdentifier: String, expiresInSeconds: Int? = nil
    ) async throws -> IssuedStartToken {
        let lifetime = expiresInSeconds ?? Self.defaultStartTokenLifetime
        guard (1...Self.maximumStartTokenLifetime).contains(lifetime) else {
            throw AdminError.invalidInput(
                field: "expiresInSeconds", message: "A start token lives between 1 and 3600 seconds.")
        }
        guard let identifier = EmailAddress.normalize(rawIdentifier) ?? PhoneNumber.normalize(rawIdentifier) else {
            throw AdminError.invalidInput(
                field: "identifier", message: "The identifier must be an email address or an E.164 phone number.")
        }
        let now = clock.now().epochMilliseconds
        let expiresAt = now + Int64(lifetime) * 1000
        let token = SecureRandom.token(prefix: "kst")
        try await database.write { repositories in
            guard let application = try await repositories.applications.find(configId: configId) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            guard application.flowTypes.contains(flowType) else {
                throw AdminError.invalidInput(
                    field: "flowType", message: "The application does not open \(flowType.rawValue) flows.")
            }
            try await repositories.startTokens.insert(
                hash: sha256Hex(token), applicationId: application.id,
                claim: StartTokenClaim(flowType: flowType, identifier: identifier), createdAt: now,
                expiresAt: expiresAt)
        }
        return IssuedStartToken(startToken: token, expiresAt: Date(epochMilliseconds: expiresAt))
    }

    /// Consumes a start token of the application (by its internal ID) in a transaction of its
    /// own: what it was issued for, or `nil` when it is unknown, expired or used. Inside the
    /// engine's own transaction use `repositories.startTokens.consume(token:applicationId:now:)`.
    package func consumeStartToken(token: String, applicationId: String, now: Date) async throws -> StartTokenClaim? {
        try await database.write { repositories in
            try await repositories.startTokens.consume(
                token: token, applicationId: applicationId, now: now.epochMilliseconds)
        }
    }

    // MARK: Users

    /// The users with this email address (normalized first), in every project.
    package func users(email rawEmail: String) async throws -> [AdminUser] {
        guard let email = EmailAddress.normalize(rawEmail) else {
            throw AdminError.invalidInput(field: "email", message: "The email address is not valid.")
        }
        let methods = self.methods
        return try await database.read { try await $0.users.find(email: email) }.map { AdminUser($0, methods: methods) }
    }

    /// The user with this ID (guests included, which have no email address to look them up by).
    package func user(id userId: String) async throws -> AdminUser {
        guard let user = try await database.read({ try await $0.users.find(id: userId) }) else {
            throw AdminError.userNotFound(userId: userId)
        }
        return AdminUser(user, methods: methods)
    }

    /// Blocks or unblocks a user and returns it. A blocked user cannot sign in, and blocking ends
    /// every session the user has: its refresh tokens and access tokens stop working at once.
    package func setBlocked(userId: String, blocked: Bool) async throws -> AdminUser {
        let now = clock.now().epochMilliseconds
        return try await database.write { repositories in
            guard try await repositories.users.find(id: userId) != nil else {
                throw AdminError.userNotFound(userId: userId)
            }
            try await repositories.users.setBlocked(id: userId, at: blocked ? now : nil)
            if blocked {
                try await repositories.endSessions(userId: userId, at: now)
            }
            guard let user = try await repositories.users.find(id: userId) else {
                throw AdminError.userNotFound(userId: userId)
            }
            return AdminUser(user, methods: methods)
        }
    }

    // MARK: Trusted devices

    /// The user's trusted devices in every application.
    package func trustedDevices(userId: String) async throws -> [TrustedDevice] {
        let now = clock.now().epochMilliseconds
        return try await database.read { repositories in
            guard try await repositories.users.find(id: userId) != nil else { throw AdminError.userNotFound(userId: userId) }
            return try await repositories.trustedDevices.trusted(userId: userId, applicationId: nil, now: now)
                .map(TrustedDevice.init)
        }
    }

    /// Stops trusting one device of the user.
    package func revokeDevice(userId: String, deviceId: String) async throws {
        let now = clock.now().epochMilliseconds
        try await database.write { repositories in
            guard try await repositories.users.find(id: userId) != nil else { throw AdminError.userNotFound(userId: userId) }
            guard try await repositories.trustedDevices.revoke(id: deviceId, userId: userId, now: now) else {
                throw AdminError.deviceNotFound(deviceId: deviceId)
            }
        }
    }

    /// Stops trusting every device of the user; returns how many were trusted.
    package func revokeDevices(userId: String) async throws -> Int {
        let now = clock.now().epochMilliseconds
        return try await database.write { repositories in
            guard try await repositories.users.find(id: userId) != nil else { throw AdminError.userNotFound(userId: userId) }
            return try await repositories.trustedDevices.revokeAll(userId: userId, applicationId: nil, now: now)
        }
    }

    // MARK: Admin credential

    /// Replaces the admin token with a new random one and returns it (shown once).
    package func rotateAdminToken() async throws -> Sensitive<String> {
        try await AdminCredential.rotate(in: database, now: clock.now())
    }

    /// The application as the admin API shows it, given its origins and redirect URIs.
    static func resource(
        _ application: ApplicationRecord, corsOrigins: [String], redirectURIs: [String], postLogoutRedirectURIs: [String]
    ) -> AdminApplication {
        AdminApplication(
            configId: application.configId, name: application.name, clientType: application.clientType.rawValue,
            flowTypes: ApplicationPolicy.default(flowTypes: application.flowTypes).flowTypes,
            projectId: application.projectId, idTokenSignedResponseAlg: application.idTokenAlgorithm.rawValue,
            corsOrigins: corsOrigins, redirectUris: redirectURIs, postLogoutRedirectUris: postLogoutRedirectURIs,
            allowedScopes: application.allowedScopes.map { scopes in Scopes.supported.filter(scopes.contains) },
            dpop: AdminDPoPSettings(mode: application.dpop.mode.rawValue, requireNonce: application.dpop.requireNonce),
            requirePushedAuthorizationRequests: application.requirePAR, requirePkce: application.requirePkce,
            firstParty: application.firstParty,
            backendRoles: application.backendRoles.sorted().map(\.rawValue))
    }
}

extension KeywayServerApp {
    /// The admin service over this server's database.
    package var admin: AdminService {
        AdminService(
            database: database, clock: configuration.clock, devMode: configuration.devMode,
            tokenLifetimes: configuration.tokenLifetimes, masterKey: masterKey, methods: configuration.methods)
    }
}

extension AdminService {
    /// The internal ID of the application with this config ID (what the flow engine's calls take).
    package func applicationId(configId: String) async throws -> String {
        guard let application = try await database.read({ try await $0.applications.find(configId: configId) }) else {
            throw AdminError.applicationNotFound(configId: configId)
        }
        return application.id
    }
}

extension AdminService {
    /// Decodes a policy document as the admin API does; a malformed one throws
    /// ``AdminError/invalidInput(field:message:)`` naming the field.
    package static func decodePolicy(_ data: Data) throws -> ApplicationPolicy {
        do {
            return try WireCoding.makeDecoder().decode(ApplicationPolicy.self, from: data)
        } catch let error as DecodingError {
            let field = RequestDecoding.invalidField(for: error)
            throw AdminError.invalidInput(field: field.name, message: field.reason)
        }
    }
}
