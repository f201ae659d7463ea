import SQLKit

/// Users of a project.
struct UserRepository: Sendable {
    let sql: any SQLDatabase

    func find(projectId: String, email: String) async throws -> UserRecord? {
        try await sql.raw(
            "SELECT * FROM users WHERE project_id = \(bind: projectId) AND email = \(bind: email)"
        ).first().map(Self.decode)
    }

    func find(id: String) async throws -> UserRecord? {
        try await sql.raw("SELECT * FROM users WHERE id = \(bind: id)").first().map(Self.decode)
    }

    func find(projectId: String, phone: String) async throws -> UserRecord? {
        try await sql.raw(
            "SELECT * FROM users WHERE project_id = \(bind: projectId) AND phone = \(bind: phone)"
        ).first().map(Self.decode)
    }

    /// The user an identifier names: an email address or an E.164 phone number.
    func find(projectId: String, identifier: Identifier) async throws -> UserRecord? {
        switch identifier {
        case .email(let email): try await find(projectId: projectId, email: email)
        case .phone(let phone): try await find(projectId: projectId, phone: phone)
        }
    }

    func insert(_ user: UserRecord) async throws {
        try await insert([user])
    }

    /// Inserts `users` in one statement (at most 2,000: twelve parameters each).
    func insert(_ users: [UserRecord]) async throws {
        guard !users.isEmpty else { return }
        let rows = users.map { user -> SQLQueryString in
            """
            (\(bind: user.id), \(bind: user.projectId), \(bind: Self.storedEmail(user)),
                \(bind: Int64(user.emailVerified ? 1 : 0)), \(bind: user.createdAt), \(bind: user.phone),
                \(bind: Int64(user.phoneVerified ? 1 : 0)), \(bind: user.passwordHash), \(bind: user.totpSecret),
                \(bind: user.totpLastCounter), \(bind: Int64(user.isAnonymous ? 1 : 0)), \(bind: user.guestApplicationId))
            """
        }
        try await sql.raw(
            """
            INSERT INTO users (id, project_id, email, email_verified, created_at, phone, phone_verified,
                password_hash, totp_secret, totp_last_counter, is_anonymous, guest_application_id)
            VALUES \(rows.joined(separator: ", "))
            """
        ).run()
    }

    /// The users with this email address, in every project.
    func find(email: String) async throws -> [UserRecord] {
        try await sql.raw("SELECT * FROM users WHERE email = \(bind: email) ORDER BY created_at").all().map(Self.decode)
    }

    /// Blocks the user at `time`, or unblocks it with `nil`. A user blocked already keeps the
    /// first time.
    func setBlocked(id: String, at time: Int64?) async throws {
        if let time {
            try await sql.raw(
                "UPDATE users SET blocked_at = \(bind: time) WHERE id = \(bind: id) AND blocked_at IS NULL"
            ).run()
        } else {
            try await sql.raw("UPDATE users SET blocked_at = NULL WHERE id = \(bind: id)").run()
        }
    }

    /// Writes the user's methods (phone, password, authenticator).
    func updateMethods(_ user: UserRecord) async throws {
        try await sql.raw(
            """
            UPDATE users SET email_verified = \(bind: Int64(user.emailVerified ? 1 : 0)), phone = \(bind: user.phone),
                phone_verified = \(bind: Int64(user.phoneVerified ? 1 : 0)), password_hash = \(bind: user.passwordHash),
                totp_secret = \(bind: user.totpSecret), totp_last_counter = \(bind: user.totpLastCounter)
            WHERE id = \(bind: user.id)
            """
        ).run()
    }

    /// Moves the last accepted authenticator step forward, only if `counter` is newer: `false`
    /// when the code (or a later one) was already used.
    func advanceTotpCounter(id: String, to counter: Int64) async throws -> Bool {
        let row = try await sql.raw("SELECT totp_last_counter FROM users WHERE id = \(bind: id)").first()
        let last = try row?.decode(column: "totp_last_counter", as: Int64?.self)
        if let last, counter <= last { return false }
        try await sql.raw("UPDATE users SET totp_last_counter = \(bind: counter) WHERE id = \(bind: id)").run()
        return true
    }

    /// Makes a guest a full account: its identifier and the methods its sign-up set up are
    /// written, and it is no longer anonymous. Only a guest changes (`false` otherwise: another
    /// flow upgraded it first).
    func upgradeGuest(_ user: UserRecord) async throws -> Bool {
        let row = try await sql.raw(
            "SELECT is_anonymous FROM users WHERE id = \(bind: user.id)"
        ).first()
        guard let row, try row.decode(column: "is_anonymous", as: Int64.self) != 0 else { return false }
        try await sql.raw(
            """
            UPDATE users SET email = \(bind: Self.storedEmail(user)), email_verified = \(bind: Int64(user.emailVerified ? 1 : 0)),
                phone = \(bind: user.phone), phone_verified = \(bind: Int64(user.phoneVerified ? 1 : 0)),
                password_hash = \(bind: user.passwordHash), totp_secret = \(bind: user.totpSecret),
                totp_last_counter = \(bind: user.totpLastCounter), is_anonymous = 0
            WHERE id = \(bind: user.id) AND is_anonymous = 1
            """
        ).run()
        return true
    }

    /// The guests `applicationId` made before `createdBefore` (never upgraded), oldest first, at
    /// most `limit`.
    func staleGuests(applicationId: String, createdBefore: Int64, limit: Int) async throws -> [String] {
        try await sql.raw(
            """
            SELECT id FROM users
            WHERE is_anonymous = 1 AND guest_application_id = \(bind: applicationId) AND created_at < \(bind: createdBefore)
            ORDER BY created_at LIMIT \(bind: Int64(limit))
            """
        ).all().map { try $0.decode(column: "id", as: String.self) }
    }

    /// Deletes a guest that was never upgraded with everything attached to it: its sessions and
    /// tokens, browser sessions and consents, flows with what hangs on them (sign-in links,
    /// upstream provider states, approval requests, undelivered messages), profile, trusted
    /// devices, upstream and external identities, and PowerAuth activations with their tokens,
    /// keys and recovery codes. Every table with a user's ID is covered; run it inside a
    /// transaction, so a failure leaves the guest whole. `false` when the user is not (or no
    /// longer) a guest.
    func deleteGuest(id: String) async throws -> Bool {
        let row = try await sql.raw("SELECT is_anonymous FROM users WHERE id = \(bind: id)").first()
        guard let row, try row.decode(column: "is_anonymous", as: Int64.self) != 0 else { return false }
        let activations: SQLQueryString = "SELECT id FROM powerauth_activations WHERE user_id = \(bind: id)"
        let flows: SQLQueryString = "SELECT id FROM flows WHERE user_id = \(bind: id)"
        let statements: [SQLQueryString] = [
            "DELETE FROM powerauth_tokens WHERE activation_id IN (\(activations))",
            "DELETE FROM powerauth_temporary_keys WHERE activation_id IN (\(activations))",
            "DELETE FROM powerauth_recovery_puks WHERE recovery_code_id IN (SELECT id FROM powerauth_recovery_codes WHERE user_id = \(bind: id))",
            "DELETE FROM powerauth_recovery_codes WHERE user_id = \(bind: id)",
            "DELETE FROM powerauth_activations WHERE user_id = \(bind: id)",
            // A token's user is its session's: found by session (`refresh_tokens_session`).
            "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = \(bind: id))",
            "DELETE FROM authorization_codes WHERE user_id = \(bind: id)",
            "DELETE FROM sessions WHERE user_id = \(bind: id)",
            "DELETE FROM browser_sessions WHERE user_id = \(bind: id)",
            "DELETE FROM consents WHERE user_id = \(bind: id)",
            "DELETE FROM approval_requests WHERE user_id = \(bind: id) OR flow_id IN (\(flows))",
            "DELETE FROM trusted_devices WHERE user_id = \(bind: id)",
            "DELETE FROM sign_in_links WHERE flow_id IN (\(flows))",
            "DELETE FROM federation_states WHERE flow_id IN (\(flows))",
            "DELETE FROM delivery_outbox WHERE flow_id IN (\(flows))",
            "DELETE FROM flows WHERE user_id = \(bind: id)",
            "DELETE FROM user_profiles WHERE user_id = \(bind: id)",
            "DELETE FROM external_identities WHERE user_id = \(bind: id)",
            "DELETE FROM federated_identities WHERE user_id = \(bind: id)",
            "DELETE FROM passkey_credentials WHERE user_id = \(bind: id)",
            "DELETE FROM users WHERE id = \(bind: id) AND is_anonymous = 1",
        ]
        for statement in statements { try await sql.raw(statement).run() }
        return true
    }

    func markEmailVerified(id: String) async throws {
        try await sql.raw("UPDATE users SET email_verified = 1 WHERE id = \(bind: id)").run()
    }

    private static func decode(_ row: any SQLRow) throws -> UserRecord {
        UserRecord(
            id: try row.decode(column: "id", as: String.self),
            projectId: try row.decode(column: "project_id", as: String.self),
            email: Self.contactEmail(try row.decode(column: "email", as: String.self)),
            emailVerified: try row.decode(column: "email_verified", as: Int64.self) != 0,
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            phone: try row.decode(column: "phone", as: String?.self),
            phoneVerified: try row.decode(column: "phone_verified", as: Int64.self) != 0,
            passwordHash: try row.decode(column: "password_hash", as: String?.self),
            totpSecret: try row.decode(column: "totp_secret", as: String?.self),
            totpLastCounter: try row.decode(column: "totp_last_counter", as: Int64?.self),
            blockedAt: try row.decode(column: "blocked_at", as: Int64?.self),
            isAnonymous: try row.decode(column: "is_anonymous", as: Int64.self) != 0,
            guestApplicationId: try row.decode(column: "guest_application_id", as: String?.self))
    }

    /// The `email` column is unique per project and not null: a user known by phone only stores
    /// `#` and its ID there, which no normalized email address can equal.
    private static func storedEmail(_ user: UserRecord) -> String {
        user.email ?? "#\(user.id)"
    }

    private static func contactEmail(_ stored: String) -> String? {
        stored.hasPrefix("#") ? nil : stored
    }
}
