import Foundation
import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// The page a sign-in link opens (`/link/{token}`). `GET` only shows one "Continue" button and
/// changes nothing, so mail scanners that fetch links spend nothing. Its `POST` (origin and
/// CSRF checked: a token in a cookie of this page and in the form) asks "Is this you signing in
/// on …?"; the answer's `POST` approves or denies the sign-in, once: approved, the device that
/// waits moves on at its next poll.
extension HostedLogin {
    /// The cookie holding this browser's form token of link pages.
    private var linkCookieName: String { cookies.secure ? "__Host-keyway-link" : "keyway-link" }

    /// `GET /link/{token}`.
    func showLink(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        let strings = HostedStrings.english
        let token = try context.parameters.require("token")
        guard Self.isLinkToken(token) else { return linkMessage(strings("link.unknown"), status: 404) }
        switch try await engine.lookUpLink(token: token) {
        case .unknown: return linkMessage(strings("link.unknown"), status: 404)
        case .used, .decided: return linkMessage(strings("link.used"), status: 410)
        case .open(_, let application):
            let csrf = BrowserCookies.value(linkCookieName, in: request) ?? Base64URL.encode(SecureRandom.bytes(32))
            var page = HostedPage(title: strings("link.title"), theme: await theme(for: application))
            page.displays = [.text(strings("link.continueText", ["application": application.name]))]
            page.forms = [
                HostedForm(action: "/link/\(token)", csrfToken: csrf, submitLabel: strings("link.continue"))
            ]
            return respond(page, strings: strings, cookies: [cookies.set(linkCookieName, csrf, maxAge: 3600)])
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
            switch try await engine.lookUpLink(token: token) {
            case .unknown: return linkMessage(strings("link.unknown"), status: 404)
            case .used, .decided: return linkMessage(strings("link.used"), status: 410)
            case .open(let link, let application):
                var page = HostedPage(title: strings("link.title"), theme: await theme(for: application))
                let client = link.userAgent.map { strings("link.questionClient", ["client": $0]) } ?? ""
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
            switch try await engine.decideLink(token: token, approve: form["decision"] == "approve") {
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
