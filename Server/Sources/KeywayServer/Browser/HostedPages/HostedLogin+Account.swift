import Foundation
import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// Account management on the hosted pages (`/account`): the account's methods through an
/// `accountManage` flow of the engine, the applications the user allowed (revocable), and
/// signing out.
extension HostedLogin {
    /// `GET /account`: starts managing the signed-in account and shows it.
    func showAccount(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        let strings = HostedStrings.english
        guard let session = try await sessions.live(token: BrowserCookies.value(cookies.sessionName, in: request)),
            let application = try await database.read({ try await $0.applications.find(id: session.applicationId) })
        else {
            var page = HostedPage(title: strings("account.title"), theme: HostedTheme(name: "Keyway"))
            page.messages = [HostedMessage(level: .info, text: strings("account.signInFirst"))]
            return respond(page, strings: strings)
        }
        if let visit = try await visit(for: request), visit.state.purpose == .account, visit.state.flowId != nil {
            return Self.seeOther("/login")
        }
        guard application.flowTypes.contains(.accountManage) else {
            var state = BrowserFlowState(purpose: .account)
            state.consentFor = nil
            let (_, cookie) = try await startVisit(state, application: application)
            return Self.seeOther("/login", cookies: [cookie])
        }
        let appSession = try await database.read {
            try await $0.sessions.find(browserSessionId: session.id, applicationId: application.id)
        }
        guard let appSession else { return expiredPage() }
        let step = try await engine.start(
            configId: application.configId,
            request: StartFlowRequest(
                flowType: .accountManage, identifier: "",
                codeChallenge: PKCE.challenge(for: Base64URL.encode(SecureRandom.bytes(32)))),
            clientAddress: context.remoteAddress, userAgent: request.headers[.userAgent],
            account: FlowEngine.Account(
                userId: session.userId, sessionId: appSession.id, clientId: application.configId,
                scope: Scopes.defaultScope),
            traceId: context.traceId)
        var (visit, cookie) = try await startVisit(BrowserFlowState(purpose: .account), application: application)
        visit.state.flowId = step.flowID
        visit.state.sealedFlowToken = try step.flowToken.map { try seal(flowToken: $0.revealed, for: visit) }
        try await save(visit)
        return Self.seeOther("/login", cookies: [cookie])
    }

    /// What the account page adds under the flow's step: the applications allowed, signing out.
    func accountExtras(
        _ page: inout HostedPage, visit: Visit, strings: HostedStrings, request: Request, onOperation: Bool = false
    ) async throws {
        guard let session = try await sessions.live(token: BrowserCookies.value(cookies.sessionName, in: request)) else {
            return
        }
        // On an operation's own step (a fresh verification, a new password), only the way back.
        if onOperation {
            if let index = page.forms.firstIndex(where: { $0.action == "/login/cancel" }) {
                page.forms[index].submitLabel = strings("account.back")
            }
            return
        }
        try await activationExtras(&page, visit: visit, userId: session.userId, strings: strings)
        let consents = try await database.read { try await $0.consents.all(userId: session.userId) }
        var items: [HostedListItem] = []
        for consent in consents {
            guard let client = try await database.read({ try await $0.applications.find(id: consent.applicationId) }) else {
                continue
            }
            items.append(
                HostedListItem(
                    title: client.name,
                    detail: strings(
                        "account.consentScopes",
                        ["scopes": consent.scope.split(separator: " ").map { strings("scope.\($0)") }.joined(separator: ", ")]),
                    form: HostedForm(
                        action: "/account/consents/revoke", csrfToken: visit.record.csrfToken,
                        hidden: [HostedHiddenValue(name: "client_id", value: client.configId)],
                        submitLabel: strings("account.revokeConsent"), style: .secondary)))
        }
        if !items.isEmpty { page.displays.append(.list(label: strings("account.consents"), items: items)) }
        // On the account's page itself, signing out replaces cancelling: the page's last action,
        // set apart from the account's own buttons.
        page.forms.removeAll { $0.action == "/login/cancel" }
        page.forms.append(
            HostedForm(
                action: "/account/logout", csrfToken: visit.record.csrfToken, submitLabel: strings("account.signOut"),
                style: .link))
    }

    /// `POST /account/consents/revoke`: withdraws the user's consent for a client.
    func revokeConsent(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard var visit = try await visit(for: request), visit.state.purpose == .account else { return expiredPage() }
        guard let form = try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) else {
            return forbiddenPage()
        }
        guard let session = try await sessions.live(token: BrowserCookies.value(cookies.sessionName, in: request)),
            let clientId = form["client_id"],
            let client = try await database.read({ try await $0.applications.find(configId: clientId) })
        else { return Self.seeOther("/login") }
        _ = try await database.write { try await $0.consents.revoke(userId: session.userId, applicationId: client.id) }
        visit.state.flash = nil
        try await save(visit)
        return Self.seeOther("/login")
    }

    /// `POST /account/logout`: signs the browser out.
    func accountLogout(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard let visit = try await visit(for: request) else { return expiredPage() }
        guard try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) != nil else {
            return forbiddenPage()
        }
        try await finish(visit)
        if let session = try await sessions.live(token: BrowserCookies.value(cookies.sessionName, in: request)) {
            try await sessions.end(session)
        }
        return signedOut(.init(), strings: .english, theme: await theme(for: visit.application))
    }
}
