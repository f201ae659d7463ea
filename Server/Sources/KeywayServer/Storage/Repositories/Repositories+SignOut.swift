import SQLKit

/// Signing out across the session tables: a session (`sessions`) holds the access and refresh
/// tokens of one sign-in to an application; a browser session (`browser_sessions`) lets a browser
/// open more of them at the hosted pages without signing in again.
extension Repositories {
    /// Ends a browser session, every session opened through it and their refresh tokens.
    func endBrowserSession(id: String, at time: Int64) async throws {
        try await browserSessions.revoke(id: id, at: time)
        for sessionId in try await sessions.revokeAll(browserSessionId: id, at: time) {
            try await refreshTokens.revokeAll(sessionId: sessionId, at: time)
        }
    }

    /// Ends every session of a user, with its refresh tokens, and every browser session — but
    /// `keepingSession` and `keepingBrowserSession` when given (signing out everywhere else).
    func endSessions(
        userId: String, keepingSession: String? = nil, keepingBrowserSession: String? = nil, at time: Int64
    ) async throws {
        try await sessions.revokeAll(userId: userId, keeping: keepingSession, at: time)
        try await refreshTokens.revokeAll(userId: userId, keepingSession: keepingSession, at: time)
        try await browserSessions.revokeAll(userId: userId, keeping: keepingBrowserSession, at: time)
    }
}
