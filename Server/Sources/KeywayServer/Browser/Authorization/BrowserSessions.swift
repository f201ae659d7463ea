import Foundation
import KeywayJOSE
import KeywayProtocol

/// Browser sessions of the hosted pages: opening one when a sign-in completes, finding the live
/// one behind a cookie, issuing an application's authorization code from it (single sign-on), and
/// ending it with every session opened through it.
struct BrowserSessions: Sendable {
    let database: any Database
    let clock: any ServerClock
    /// How long a browser session lasts from its sign-in.
    let lifetime: TimeInterval
    /// How long an authorization code is valid.
    let codeLifetime: TimeInterval

    /// The live session behind the cookie `token`, if any.
    func live(token: String?) async throws -> BrowserSessionRecord? {
        guard let token else { return nil }
        let now = clock.now().epochMilliseconds
        let found = try await database.read { try await $0.browserSessions.find(tokenHash: sha256Hex(token)) }
        guard let found, found.revokedAt == nil, now < found.expiresAt else { return nil }
        return found
    }

    /// Opens a browser session for the sign-in that opened `sessionId`, links that session to it
    /// and ends `replacing` (the browser's previous session, if another sign-in replaced it).
    /// Returns the session and its cookie value.
    func open(
        sessionId: String, application: ApplicationRecord, replacing previous: BrowserSessionRecord?,
        in repositories: Repositories
    ) async throws -> (BrowserSessionRecord, token: String) {
        let now = clock.now().epochMilliseconds
        guard let session = try await repositories.sessions.find(id: sessionId) else { throw FlowProblem.internalError }
        if let previous { try await repositories.browserSessions.revoke(id: previous.id, at: now) }
        let token = SecureRandom.token(prefix: "kbs")
        let record = BrowserSessionRecord(
            id: SecureRandom.identifier(prefix: "bss"), tokenHash: sha256Hex(token), projectId: application.projectId,
            userId: session.userId, applicationId: application.id, amr: session.amr, authTime: session.authTime,
            createdAt: now, expiresAt: now + Int64(lifetime * 1000), revokedAt: nil)
        try await repositories.browserSessions.insert(record)
        try await repositories.sessions.link(id: session.id, browserSessionId: record.id)
        return (record, token)
    }

    /// Issues an authorization code for `request` from the browser session: the application's
    /// session opened through this browser session (one is opened on its first use), the
    /// request's PKCE challenge, scope, nonce and redirect URI.
    func issueCode(
        for request: AuthorizationRequest, application: ApplicationRecord, browserSession: BrowserSessionRecord
    ) async throws -> String {
        let now = clock.now().epochMilliseconds
        let code = SecureRandom.token(prefix: "kac")
        try await database.write { repositories in
            var session = try await repositories.sessions.find(
                browserSessionId: browserSession.id, applicationId: application.id)
            if session == nil || session?.authTime != browserSession.authTime {
                let opened = SessionRecord(
                    id: SecureRandom.identifier(prefix: "ses"), userId: browserSession.userId,
                    applicationId: application.id, amr: browserSession.amr, authTime: browserSession.authTime,
                    createdAt: now, revokedAt: nil, clientAddressHash: nil, browserSessionId: browserSession.id)
                try await repositories.sessions.insert(opened)
                session = opened
            }
            guard let session else { throw FlowProblem.internalError }
            try await repositories.authorizationCodes.insert(
                AuthorizationCodeRecord(
                    codeHash: sha256Hex(code), applicationId: application.id, userId: browserSession.userId,
                    sessionId: session.id, flowId: browserSession.id,
                    codeChallenge: request.codeChallenge ?? AuthorizationCodeRecord.noChallenge,
                    expiresAt: now + Int64(codeLifetime * 1000), usedAt: nil, createdAt: now,
                    scope: request.scopeText, nonce: request.nonce, redirectURI: request.redirectURI))
        }
        return code
    }

    /// Ends the browser session: it, every session opened through it and their refresh tokens.
    func end(_ browserSession: BrowserSessionRecord) async throws {
        let now = clock.now().epochMilliseconds
        try await database.write { repositories in
            try await repositories.endBrowserSession(id: browserSession.id, at: now)
        }
    }

    /// Whether the user must give consent to `application` for `scope`: never for a first-party
    /// application; otherwise unless a remembered consent covers every scope (and `prompt=consent`
    /// did not ask again).
    func needsConsent(
        _ application: ApplicationRecord, userId: String, scope: [String], prompt: Set<AuthorizationRequest.Prompt>
    ) async throws -> Bool {
        guard !application.firstParty else { return false }
        if prompt.contains(.consent) { return true }
        let consent = try await database.read { try await $0.consents.find(userId: userId, applicationId: application.id) }
        guard let consent else { return true }
        let granted = Set(consent.scope.split(separator: " ").map(String.init))
        return !Set(scope).isSubset(of: granted)
    }
}
