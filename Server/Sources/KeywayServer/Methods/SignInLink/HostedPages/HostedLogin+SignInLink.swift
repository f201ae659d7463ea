import Foundation
import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// The page a sign-in link opens (`/link/{token}`). `GET` only shows one "Continue" button and
/// changes nothing, so mail scanners that fetch links spend nothing. Its `POST` (origin and
/// CSRF checked: a token in a cookie of this page and in the form) asks "Is this you signing in
/// on …?"; the answer's `POST` approves or denies the sign-in, once: approved, the device that
/// waits moves on at its next poll. Opened in the browser of its hosted sign-in, the link's
/// `POST` spends it through that sign-in, which goes on to the application.
extension HostedLogin {
    /// The cookie holding this browser's form token of link pages.
    private var linkCookieName: String { cookies.secure ? "__Host-keyway-link" : "keyway-link" }

    /// `GET /link/{token}`.
    func showLink(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        let strings = HostedStrings.english
        let token = try context.parameters.require("token")
        guard Self.isLinkToken(token) else { return linkMessage(strings("link.unknown"), status: 404) }
        switch try await signInLinks.lookUp(token: token) {
        case .unknown: return linkMessage(strings("link.unknown"), status: 404)
        case .used, .decided: return linkMessage(strings("link.used"), status: 410)
        case .open(let link, let application):
            let csrf = BrowserCookies.value(linkCookieName, in: request) ?? Base64URL.encode(SecureRandom.bytes(32))
            var page = HostedPage(title: strings("link.title"), theme: await theme(for: application))
            page.displays = [.text(strings("link.continueText", ["application": application.name]))]
            page.forms = [
                HostedForm(action: "/link/\(token)", csrfToken: csrf, submitLabel: strings("link.continue"))
            ]
            // In the browser of the link's own hosted sign-in, Continue ends in a 303 to the
            // application's redirect URI, and browsers apply `form-action` to the redirect that
            // follows a post: the page allows that target, as the sign-in's own pages do.
            var targets: [String] = []
            if let visit = try await visit(for: request), visit.state.flowId == link.flowId {
                targets = Self.formTargets(visit.state)
            }
            return respond(
                page, strings: strings, formTargets: targets, cookies: [cookies.set(linkCookieName, csrf, maxAge: 3600)])
        }
    }

    /// `POST /link/{token}`: without `decision`, the question; with `decision=approve|deny`, the answer.
    func postLink(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        let strings = HostedStrings.english
        let token = try context.parameters.require("token")
        // The form is read (and the body with it) whether or not the cookie came.
        let cookie = BrowserCookies.value(linkCookieName, in: request)
        let checked = try await checkedForm(request, context: context, csrfToken: cookie ?? "")
        guard let csrf = cookie, let form = checked else { return linkMessage(strings("link.refused"), status: 403) }
        guard Self.isLinkToken(token) else { return linkMessage(strings("link.unknown"), status: 404) }
        switch form["decision"] {
        case nil:
            switch try await signInLinks.lookUp(token: token) {
            case .unknown: return linkMessage(strings("link.unknown"), status: 404)
            case .used, .decided: return linkMessage(strings("link.used"), status: 410)
            case .open(let link, let application):
                // The browser of the hosted sign-in itself: the link goes on with it.
                if let visit = try await visit(for: request), visit.state.flowId == link.flowId {
                    return try await continueVisit(visit, token: token, request: request, context: context)
                }
                var page = HostedPage(title: strings("link.title"), theme: await theme(for: application))
                let client = ClientDescription.coarse(link.userAgent).map { strings("link.questionClient", ["client": $0]) } ?? ""
                let location = link.location.map { strings("link.questionLocation", ["location": $0]) } ?? ""
                page.displays = [
                    .text(
                        strings("link.question", ["application": application.name, "client": client, "location": location])),
                    .text(strings("link.questionHint")),
                ]
                page.forms = [
                    HostedForm(
                        action: "/link/\(token)", csrfToken: csrf,
                        hidden: [HostedHiddenValue(name: "decision", value: "approve")],
                        submitLabel: strings("link.approve")),
                    HostedForm(
                        action: "/link/\(token)", csrfToken: csrf,
                        hidden: [HostedHiddenValue(name: "decision", value: "deny")],
                        submitLabel: strings("link.deny"), style: .secondary),
                ]
                return respond(page, strings: strings)
            }
        case "approve"?, "deny"?:
            switch try await signInLinks.decide(token: token, approve: form["decision"] == "approve") {
            case .unknown: return linkMessage(strings("link.unknown"), status: 404)
            case .used, .open: return linkMessage(strings("link.used"), status: 410)
            case .decided(let approved, let application):
                var page = HostedPage(title: strings("link.title"), theme: await theme(for: application))
                page.messages = [
                    HostedMessage(
                        level: approved ? .success : .info, text: strings(approved ? "link.approved" : "link.denied"))
                ]
                return respond(page, strings: strings)
            }
        default:
            return linkMessage(strings("link.refused"), status: 400)
        }
    }

    /// The link opened in the browser of its hosted sign-in (the visit behind the flow cookie
    /// drives the link's flow): the link is spent through the visit's flow, as an app on the same
    /// device spends it, and the visit goes on — to the application with its code, or to the next
    /// page. A refusal is shown on the visit's page, where the code still works.
    private func continueVisit(
        _ visit: Visit, token: String, request: Request, context: KeywayRequestContext
    ) async throws -> Response {
        var visit = visit
        guard let flowId = visit.state.flowId, let flowToken = try flowToken(of: visit) else { return Self.seeOther("/login") }
        do {
            let step = try await engine.current(
                flowId: flowId, flowToken: flowToken, configId: visit.application.configId, traceId: context.traceId)
            guard let action = step.action(named: "openLink") else { return Self.seeOther("/login") }
            let next = try await flowAPI.perform(
                action, body: ["token": .string(token)], flowToken: flowToken, configId: visit.application.configId,
                userAgent: request.headers[.userAgent], context: context)
            logger.info("sign-in link opened in its hosted sign-in")
            if let next, case .completed(let completion) = next.payload {
                return try await completeSignIn(
                    visit, completion: completion, request: request,
                    strings: HostedStrings.forLocales(visit.state.request?.uiLocales ?? []))
            }
        } catch let problem as FlowProblem {
            visit.state.flash = Self.flash(problem, field: nil)
            try await save(visit)
        }
        return Self.seeOther("/login")
    }

    /// A page with one message.
    private func linkMessage(_ text: String, status: Int) -> Response {
        var page = HostedPage(title: HostedStrings.english("link.title"), theme: HostedTheme(name: "Keyway"))
        page.messages = [HostedMessage(level: status < 400 ? .info : .error, text: text)]
        page.status = status
        return respond(page, strings: .english)
    }

    /// Whether `token` has the shape of a link token (the server's token alphabet, bounded).
    static func isLinkToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count <= 200
            && token.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }
    }
}
