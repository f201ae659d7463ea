import SQLKit

/// Upstream identities linked to users (`federated_identities`) and the authorization requests
/// sent to providers (`federation_states`).
struct FederatedIdentityRepository: Sendable {
    let sql: any SQLDatabase

    /// The identity `subject` of `issuer` in the project, if linked.
    func find(projectId: String, issuer: String, subject: String) async throws -> FederatedIdentityRecord? {
        try await sql.raw(
            """
            SELECT * FROM federated_identities
            WHERE project_id = \(bind: projectId) AND issuer = \(bind: issuer) AND subject = \(bind: subject)
            """
        ).first().map(Self.record)
    }

    /// The user's linked identities, oldest first.
    func all(userId: String) async throws -> [FederatedIdentityRecord] {
        try await sql.raw(
            "SELECT * FROM federated_identities WHERE user_id = \(bind: userId) ORDER BY created_at, id"
        ).all().map(Self.record)
    }

    /// Links an identity. An identity already linked (a callback delivered twice) is left as it
    /// is: the answer is the record that holds the link.
    func link(_ identity: FederatedIdentityRecord) async throws -> FederatedIdentityRecord {
        if let existing = try await find(projectId: identity.projectId, issuer: identity.issuer, subject: identity.subject) {
            return existing
        }
        try await sql.raw(
            """
            INSERT INTO federated_identities (id, user_id, project_id, provider_id, issuer, subject, email, email_verified,
                name, picture, created_at, last_used_at)
            VALUES (\(bind: identity.id), \(bind: identity.userId), \(bind: identity.projectId), \(bind: identity.providerId),
                \(bind: identity.issuer), \(bind: identity.subject), \(bind: identity.email),
                \(bind: Int64(identity.emailVerified ? 1 : 0)), \(bind: identity.name), \(bind: identity.picture),
                \(bind: identity.createdAt), \(bind: identity.lastUsedAt))
            """
        ).run()
        return identity
    }

    /// Records a sign-in with the identity: the time, and what the provider now says (a name
    /// only when it sent one — Apple sends it once).
    func used(id: String, email: String?, emailVerified: Bool, name: String?, picture: String?, at time: Int64) async throws {
        try await sql.raw(
            """
            UPDATE federated_identities SET last_used_at = \(bind: time), email = \(bind: email),
                email_verified = \(bind: Int64(emailVerified ? 1 : 0)), name = COALESCE(\(bind: name), name),
                picture = COALESCE(\(bind: picture), picture)
            WHERE id = \(bind: id)
            """
        ).run()
    }

    /// Unlinks one of the user's identities; `false` when the user has none with `id`.
    func unlink(id: String, userId: String) async throws -> Bool {
        let found = try await sql.raw(
            "SELECT id FROM federated_identities WHERE id = \(bind: id) AND user_id = \(bind: userId)"
        ).first()
        guard found != nil else { return false }
        try await sql.raw("DELETE FROM federated_identities WHERE id = \(bind: id)").run()
        return true
    }

    /// Holds every identity of the user not held yet (the account's address was just proved
    /// for the first time); answers those it held.
    func hold(userId: String, at time: Int64) async throws -> [FederatedIdentityRecord] {
        let unheld = try await all(userId: userId).filter { $0.heldSince == nil }
        guard !unheld.isEmpty else { return [] }
        try await sql.raw(
            "UPDATE federated_identities SET held_since = \(bind: time) WHERE user_id = \(bind: userId) AND held_since IS NULL"
        ).run()
        return unheld.map { var held = $0; held.heldSince = time; return held }
    }

    /// Releases one of the user's held identities (its owner keeps it); `false` when the user has
    /// no held identity `id`.
    func keep(id: String, userId: String) async throws -> Bool {
        let found = try await sql.raw(
            """
            SELECT id FROM federated_identities
            WHERE id = \(bind: id) AND user_id = \(bind: userId) AND held_since IS NOT NULL
            """
        ).first()
        guard found != nil else { return false }
        try await sql.raw("UPDATE federated_identities SET held_since = NULL WHERE id = \(bind: id)").run()
        return true
    }

    // MARK: States

    func insertState(_ state: FederationStateRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO federation_states (state_hash, flow_id, provider_id, sealed_nonce, sealed_verifier, created_at,
                expires_at, consumed_at, outcome)
            VALUES (\(bind: state.stateHash), \(bind: state.flowId), \(bind: state.providerId), \(bind: state.sealedNonce),
                \(bind: state.sealedVerifier), \(bind: state.createdAt), \(bind: state.expiresAt), NULL, NULL)
            """
        ).run()
    }

    func state(hash: String) async throws -> FederationStateRecord? {
        guard
            let row = try await sql.raw("SELECT * FROM federation_states WHERE state_hash = \(bind: hash)").first()
        else { return nil }
        return FederationStateRecord(
            stateHash: try row.decode(column: "state_hash", as: String.self),
            flowId: try row.decode(column: "flow_id", as: String.self),
            providerId: try row.decode(column: "provider_id", as: String.self),
            sealedNonce: try row.decode(column: "sealed_nonce", as: String.self),
            sealedVerifier: try row.decode(column: "sealed_verifier", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            consumedAt: try row.decode(column: "consumed_at", as: Int64?.self),
            outcome: try row.decode(column: "outcome", as: String?.self))
    }

    /// Consumes a state once: `false` when it was consumed already.
    func consumeState(hash: String, at time: Int64) async throws -> Bool {
        let rows = try await sql.raw(
            """
            UPDATE federation_states SET consumed_at = \(bind: time)
            WHERE state_hash = \(bind: hash) AND consumed_at IS NULL
            RETURNING state_hash
            """
        ).all()
        return !rows.isEmpty
    }

    /// Keeps what the provider's verified answer said, until the flow applies it; the first one
    /// stays.
    func recordOutcome(hash: String, outcome: String) async throws {
        try await sql.raw(
            """
            UPDATE federation_states SET outcome = \(bind: outcome)
            WHERE state_hash = \(bind: hash) AND outcome IS NULL AND consumed_at IS NULL
            """
        ).run()
    }

    /// Removes states past their expiry (the maintenance sweep).
    func sweepStates(before time: Int64) async throws {
        try await sql.raw("DELETE FROM federation_states WHERE expires_at < \(bind: time)").run()
    }

    private static func record(_ row: any SQLRow) throws -> FederatedIdentityRecord {
        FederatedIdentityRecord(
            id: try row.decode(column: "id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            projectId: try row.decode(column: "project_id", as: String.self),
            providerId: try row.decode(column: "provider_id", as: String.self),
            issuer: try row.decode(column: "issuer", as: String.self),
            subject: try row.decode(column: "subject", as: String.self),
            email: try row.decode(column: "email", as: String?.self),
            emailVerified: try row.decode(column: "email_verified", as: Int64.self) != 0,
            name: try row.decode(column: "name", as: String?.self),
            picture: try row.decode(column: "picture", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            lastUsedAt: try row.decode(column: "last_used_at", as: Int64.self),
            heldSince: try row.decode(column: "held_since", as: Int64?.self))
    }
}

extension Repositories {
    /// ``FederatedIdentityRepository`` on this connection or transaction.
    var federatedIdentities: FederatedIdentityRepository { FederatedIdentityRepository(sql: sql) }
}
