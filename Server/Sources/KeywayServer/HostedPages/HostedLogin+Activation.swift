import Foundation
import Hummingbird
import KeywayProtocol

/// Activating another device from the hosted account page: the user's PowerAuth activations in
/// this application, and a button that makes an activation code (with its QR code, shown once)
/// for a second device to scan or type.
extension HostedLogin {
    /// How long a code made on the account page lives.
    static let accountActivationCodeLifetime = 600

    /// Adds the activations, a code made just before (then forgets it), and the button.
    func activationExtras(_ page: inout HostedPage, visit: Visit, userId: String, strings: HostedStrings) async throws {
        let list = try await activations.list(userId: userId, configId: visit.application.configId)
        let items = list.activations.filter { $0.status != "REMOVED" && $0.status != "CREATED" }.map { activation in
            HostedListItem(
                title: activation.name ?? strings("activation.unnamed"),
                detail: strings(
                    "activation.detail",
                    [
                        "status": strings("activation.status.\(activation.status)"),
                        "fingerprint": activation.fingerprint ?? "–",
                    ]),
                form: nil)
        }
        if !items.isEmpty { page.displays.append(.list(label: strings("activation.listed"), items: items)) }
        if let issued = visit.state.activationCode {
            let qrPayload = String(
                decoding: try secrets.open(issued.sealedQRPayload, purpose: "browser-activation:\(visit.record.id)"),
                as: UTF8.self)
            let code = String(qrPayload.prefix { $0 != "#" })
            page.messages.append(
                HostedMessage(level: .success, text: strings("activation.codeMade", ["expires": Self.clockTime(issued.expiresAt)])))
            page.displays.append(.value(label: strings("activation.code"), value: code))
            page.displays.append(.qrCode(label: strings("activation.qrLabel"), data: qrPayload))
            var shown = visit
            shown.state.activationCode = nil
            try await save(shown)
        }
        // The account-management step offers its own operation where the application uses
        // device activation; the page's button is for the rest.
        let stepOffersIt = page.forms.contains { form in
            form.hidden.contains { $0.name == "action" && $0.value == FlowEngine.activationCodeOperation.name }
        }
        guard !stepOffersIt else { return }
        page.forms.append(
            HostedForm(
                action: "/account/activation-code", csrfToken: visit.record.csrfToken,
                submitLabel: strings("activation.makeCode"), style: .secondary))
    }

    /// An RFC 3339 time as `HH:mm UTC`.
    static func clockTime(_ rfc3339: String) -> String {
        guard let date = ISO8601DateFormatter().date(from: rfc3339) else { return rfc3339 }
        return clockTime(date)
    }

    /// A time as `HH:mm UTC`.
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm 'UTC'"
        return formatter.string(from: date)
    }

    /// `POST /account/activation-code`: makes a code for another device of the signed-in user in
    /// this application, and shows it on the account page.
    func createActivationCode(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard var visit = try await visit(for: request), visit.state.purpose == .account else { return expiredPage() }
        guard try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) != nil else {
            return forbiddenPage()
        }
        guard let session = try await sessions.live(token: BrowserCookies.value(cookies.sessionName, in: request)) else {
            return Self.seeOther("/login")
        }
        let created = try await activations.createCode(
            userId: session.userId,
            request: CreateActivationCodeRequest(
                configId: visit.application.configId, expiresIn: Self.accountActivationCodeLifetime))
        visit.state.activationCode = BrowserFlowState.IssuedActivationCode(
            sealedQRPayload: try secrets.seal(
                Array(created.qrPayload.utf8), purpose: "browser-activation:\(visit.record.id)"),
            expiresAt: created.expiresAt)
        try await save(visit)
        logger.notice(
            "powerauth: activation code created on the account page",
            metadata: ["user": "\(session.userId)", "activation": "\(created.activationId)"])
        return Self.seeOther("/login")
    }
}
