import Foundation
import HTTPTypes
import Hummingbird
import KeywayProtocol

/// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) at `/oauth2/logout`, and the
/// confirmation page of a request without a valid `id_token_hint`.
extension HostedLogin {
    /// Answers a logout request: signs the browser out and sends it to the registered
    /// `post_logout_redirect_uri` (with `state`) or shows that it is signed out; without a valid
    /// hint for the signed-in user, asks first.
    func endSession(_ parameters: [String: String], request: Request) async throws -> Response {
        let strings = HostedStrings.forLocales((parameters["ui_locales"] ?? "").split(separator: " ").map(String.init))
        let issuer = issuer()
        var hint: IDTokenHint?
        if let token = parameters["id_token_hint"], !token.isEmpty {
            guard let verified = IDTokenHint(token, keys: keys, issuer: issuer) else {
                return errorPage(
                    title: strings("error.title"), text: "The id_token_hint is not an ID token this server issued.",
                    status: 400, strings: strings)
            }
            hint = verified
        }
        var clientId = parameters["client_id"]
        if let hint {
            if let clientId, !hint.audience.contains(clientId) {
                return errorPage(
                    title: strings("error.title"), text: "The client_id is not the audience of the id_token_hint.",
                    status: 400, strings: strings)
            }
            clientId = clientId ?? hint.audience.first
        }
        let application = try await clientId.asyncFlatMap { id in try await database.read { try await $0.applications.find(configId: id) } }
        if clientId != nil, application == nil {
            return errorPage(
                title: strings("error.unknownClient.title"), text: strings("error.unknownClient.text"), status: 400,
                strings: strings)
        }
        var target = BrowserFlowState.LogoutTarget(redirectURI: nil, state: parameters["state"], clientId: application?.configId)
        if let redirectURI = parameters["post_logout_redirect_uri"] {
            guard let application else {
                return errorPage(
                    title: strings("error.logoutRedirect.title"),
                    text: strings("error.logoutRedirect.noClient", ["uri": Self.shown(redirectURI)]), status: 400,
                    strings: strings)
            }
            let registered = try await database.read { try await $0.redirectURIs.uris(.logout, applicationId: application.id) }
            guard registered.contains(redirectURI) else {
                return errorPage(
                    title: strings("error.logoutRedirect.title"),
                    text: strings(
                        "error.logoutRedirect.unregistered",
                        ["uri": Self.shown(redirectURI), "application": application.name]),
                    status: 400, theme: await self.theme(for: application), strings: strings)
            }
            target.redirectURI = redirectURI
        }
        if let value = parameters["state"], value.utf8.count > AuthorizationRequest.maximumValueLength {
            return errorPage(title: strings("error.title"), text: "state is too long.", status: 400, strings: strings)
        }
        let session = try await sessions.live(token: BrowserCookies.value(cookies.sessionName, in: request))
        var theme: HostedTheme?
        if let application { theme = await self.theme(for: application) }
        // A valid hint for the signed-in user (or no one signed in): no question to ask.
        if let hint, session == nil || session?.userId == hint.subject {
            if let session { try await sessions.end(session) }
            return signedOut(target, strings: strings, theme: theme)
        }
        if session == nil {
            return signedOut(target, strings: strings, theme: theme)
        }
        var anchor = application
        if anchor == nil { anchor = try await sessionApplication(session) }
        guard let anchor else { return signedOut(target, strings: strings, theme: theme) }
        var state = BrowserFlowState(purpose: .logout)
        state.logout = target
        let (_, cookie) = try await startVisit(state, application: anchor)
        return Self.seeOther("/login", cookies: [cookie])
    }

    /// `POST /login/logout`: the answer of the confirmation page.
    func confirmLogout(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard let visit = try await visit(for: request), visit.state.purpose == .logout else { return expiredPage() }
        guard let form = try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) else {
            return forbiddenPage()
        }
        try await finish(visit)
        let strings = HostedStrings.english
        let theme = await theme(for: visit.application)
        guard form["decision"] == "logout" else {
            var page = HostedPage(title: strings("logout.stayed.title"), theme: theme)
            page.displays = [.text(strings("logout.done.text"))]
            return respond(page, strings: strings, cookies: [cookies.clear(cookies.flowName)])
        }
        if let session = try await sessions.live(token: BrowserCookies.value(cookies.sessionName, in: request)) {
            try await sessions.end(session)
        }
        return signedOut(visit.state.logout ?? .init(), strings: strings, theme: theme)
    }

    /// The browser is signed out: to the client's post-logout URI, or a page saying so.
    func signedOut(_ target: BrowserFlowState.LogoutTarget, strings: HostedStrings, theme: HostedTheme?) -> Response {
        let clear = [cookies.clear(cookies.sessionName), cookies.clear(cookies.flowName)]
        if let redirectURI = target.redirectURI {
            var location = redirectURI
            if let state = target.state {
                location += (redirectURI.contains("?") ? "&" : "?") + "state=" + AuthorizationResponse.encode(state)
            }
            return Self.seeOther(location, cookies: clear)
        }
        var page = HostedPage(title: strings("logout.done.title"), theme: theme ?? HostedTheme(name: "Keyway"))
        page.displays = [.text(strings("logout.done.text"))]
        return respond(page, strings: strings, cookies: clear)
    }

    /// The page asking whether to sign out.
    func logoutConfirmPage(_ visit: Visit, theme: HostedTheme, strings: HostedStrings) -> HostedPage {
        var page = HostedPage(title: strings("logout.title"), theme: theme)
        // The application that asked, when the request named it (`client_id` or the hint's
        // audience); otherwise the page cannot say which one did.
        let intro =
            visit.state.logout?.clientId == nil
            ? strings("logout.intro", ["project": theme.name])
            : strings("logout.introNamed", ["application": visit.application.name, "project": theme.name])
        page.displays = [.text(intro)]
        page.forms = [
            HostedForm(
                action: "/login/logout", csrfToken: visit.record.csrfToken,
                hidden: [HostedHiddenValue(name: "decision", value: "logout")], submitLabel: strings("logout.confirm")),
            HostedForm(
                action: "/login/logout", csrfToken: visit.record.csrfToken,
                hidden: [HostedHiddenValue(name: "decision", value: "stay")], submitLabel: strings("logout.stay"),
                style: .secondary),
        ]
        return page
    }

    private func sessionApplication(_ session: BrowserSessionRecord?) async throws -> ApplicationRecord? {
        guard let session else { return nil }
        return try await database.read { try await $0.applications.find(id: session.applicationId) }
    }
}

extension Optional {
    /// `map` with an asynchronous, throwing transform.
    func asyncFlatMap<U>(_ transform: (Wrapped) async throws -> U?) async rethrows -> U? {
        guard let value = self else { return nil }
        return try await transform(value)
    }
}
