import Foundation
import KeywayProtocol

/// Account management's signed-in sessions: the account step lists the sessions whose tokens can
/// still work (``SessionRepository/live(userId:openedAfter:now:limit:)``, at most
/// ``listedSessions``, newest first) and signs out one of the others (`endSession`) or all of
/// them (`endOtherSessions`). Signing out makes the account safer, so neither asks for a fresh
/// verification. A session opened through the hosted pages in another browser is signed out with
/// that browser: its hosted-page session and every session opened through it end, so the browser
/// cannot sign straight back in. The step's own session is signed out by signing out.
extension FlowEngine {
    /// Signs out one session (field `sessionId`).
    static let endSessionOperation = ManageOperation(
        name: "endSession", label: "Sign out a session", needsReverification: false)
    /// Signs out every session but the step's own.
    static let endOtherSessionsOperation = ManageOperation(
        name: "endOtherSessions", label: "Sign out everywhere else", needsReverification: false)

    /// How many sessions the account step lists: the newest; `endOtherSessions` reaches them all.
    static let listedSessions = 20

    /// The notices the sessions' operations leave.
    static let sessionNotices = [
        "sessionEnded": "That session is signed out.",
        "otherSessionsEnded": "Every other session is signed out.",
    ]

    /// Reads the account's live sessions into the context, for a `manageAccount` step.
    func loadSessions(_ context: inout Context, in repositories: Repositories) async throws {
        guard let user = context.user else { return }
        var sessions = try await repositories.sessions.live(
            userId: user.id, openedAfter: context.now - milliseconds(accessTokenLifetime), now: context.now,
            limit: Self.listedSessions)
        // The step's own session is listed whatever its age (its access token opened the step).
        if let own = context.flow.sessionId, !sessions.contains(where: { $0.session.id == own }),
            let session = try await repositories.sessions.find(id: own), session.revokedAt == nil,
            let application = try await repositories.applications.find(id: session.applicationId)
        {
            sessions.append(LiveSession(session: session, applicationName: application.name))
        }
        context.sessions = sessions
    }

    /// The sessions' operations, when there is a session other than the step's own.
    static func sessionOperations(_ context: Context) -> [ManageOperation] {
        let others = context.sessions.filter { $0.session.id != context.flow.sessionId }
        guard !others.isEmpty else { return [] }
        var end = endSessionOperation
        end.fields = [
            Field(
                name: "sessionId", type: .select, required: true, label: "Session",
                options: others.map { FieldOption(value: $0.session.id, label: $0.applicationName) })
        ]
        return [end, endOtherSessionsOperation]
    }

    /// The sessions as the step lists them.
    static func accountSessions(_ context: Context) -> [AccountSession] {
        context.sessions.map { live in
            AccountSession(
                id: live.session.id, application: live.applicationName,
                signedInAt: Date(epochMilliseconds: live.session.authTime), methods: live.session.amr,
                current: live.session.id == context.flow.sessionId)
        }
    }

    /// Runs `endSession` or `endOtherSessions` in the request's transaction.
    func endSessions(_ name: String, _ sessionId: String?, _ context: inout Context, in repositories: Repositories)
        async throws -> FlowProblem?
    {
        guard let user = context.user else { throw FlowProblem.internalError }
        let ownBrowser = context.sessions.first { $0.session.id == context.flow.sessionId }?.session.browserSessionId
        if name == Self.endSessionOperation.name {
            guard let sessionId, sessionId != context.flow.sessionId,
                let ended = context.sessions.first(where: { $0.session.id == sessionId })?.session
            else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "sessionId", reason: "Choose one of the other sessions listed.")
                ])
            }
            try await repositories.sessions.revoke(id: ended.id, at: context.now)
            try await repositories.refreshTokens.revokeAll(sessionId: ended.id, at: context.now)
            if let browser = ended.browserSessionId, browser != ownBrowser {
                try await repositories.endBrowserSession(id: browser, at: context.now)
            }
            context.progress.notice = "sessionEnded"
            logger.notice("session signed out from the account", metadata: ["user": "\(user.id)", "session": "\(ended.id)"])
        } else {
            try await repositories.endSessions(
                userId: user.id, keepingSession: context.flow.sessionId, keepingBrowserSession: ownBrowser, at: context.now)
            context.progress.notice = "otherSessionsEnded"
            logger.notice("other sessions signed out from the account", metadata: ["user": "\(user.id)"])
        }
        context.progress.stage = .manageAccount
        try await loadSessions(&context, in: repositories)
        return nil
    }
}
