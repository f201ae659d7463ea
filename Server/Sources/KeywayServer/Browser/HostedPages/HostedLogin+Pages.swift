import Foundation
import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// The pages of a visit under `/login`: the identifier, each step of the flow, consent, and the
/// posts that answer them (each a `303` back to `GET /login`, or to the client).
extension HostedLogin {
    /// `GET /login`: the page of where the visit stands.
    func showLogin(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard var visit = try await visit(for: request) else { return expiredPage() }
        let strings = HostedStrings.forLocales(visit.state.request?.uiLocales ?? [])
        let theme = await theme(for: visit.application)
        let flash = visit.state.flash
        if flash != nil {
            visit.state.flash = nil
            try await save(visit)
        }
        let targets = Self.formTargets(visit.state)
        switch visit.state.purpose {
        case .logout:
            return respond(logoutConfirmPage(visit, theme: theme, strings: strings), strings: strings, formTargets: targets)
        case .account, .authorize:
            break
        }
        if let sessionId = visit.state.consentFor {
            return respond(
                try await consentPage(visit, browserSessionId: sessionId, theme: theme, strings: strings),
                strings: strings, formTargets: targets)
        }
        guard let flowId = visit.state.flowId, let flowToken = try flowToken(of: visit) else {
            if visit.state.purpose == .account {
                var page = HostedPage(title: strings("account.title"), theme: theme)
                if let flash { page.messages.append(HostedMessage(level: .info, text: flash.message)) }
                try await accountExtras(&page, visit: visit, strings: strings, request: request)
                return respond(page, strings: strings)
            }
            var page = identifierPage(visit, theme: theme, strings: strings, flash: flash)
            // After a refusal, only the button: the browser's autofill would offer the same passkey again.
            try await addPasskeySignIn(to: &page, visit: &visit, strings: strings, autofill: flash == nil)
            return respond(page, strings: strings, formTargets: targets)
        }
        var step: Step
        do {
            step = try await engine.current(
                flowId: flowId, flowToken: flowToken, configId: visit.application.configId, traceId: context.traceId)
            // Waiting for an approval: each visit of the page (it reloads itself) asks once.
            if step.kind == .awaitApproval, let poll = step.action(named: "poll") {
                do {
                    if let next = try await flowAPI.perform(
                        poll, body: [:], flowToken: flowToken, configId: visit.application.configId,
                        userAgent: request.headers[.userAgent], context: context)
                    {
                        step = next
                    }
                } catch let problem as FlowProblem where problem.problem.code == .slowDown {
                    // Asked too soon: the page shows the same wait.
                }
            }
        } catch let problem as FlowProblem {
            return try await restart(visit, after: problem)
        }
        if case .completed(let completion) = step.payload {
            return try await completeSignIn(visit, completion: completion, request: request, strings: strings)
        }
        var page = StepPage(
            strings: strings, csrfToken: visit.record.csrfToken, theme: theme, applicationName: visit.application.name,
            now: clock.now()
        ).page(for: step, flash: flash)
        if visit.state.purpose == .account {
            page.subtitle = nil
            try await accountExtras(
                &page, visit: visit, strings: strings, request: request, onOperation: step.kind != .manageAccount)
        } else if let identifier = visit.state.identifier, !identifier.isEmpty {
            // Who is signing in, as typed, with the way back for someone who typed another's.
            page.displays.insert(.value(label: strings("identity.label"), value: identifier), at: 0)
            page.forms.append(
                HostedForm(
                    action: "/login/restart", csrfToken: visit.record.csrfToken, submitLabel: strings("identity.notYou"),
                    style: .link))
        }
        return respond(page, strings: strings, formTargets: targets)
    }

    /// `POST /login/identify`: starts the flow for the identifier typed.
    func identify(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard var visit = try await visit(for: request) else { return expiredPage() }
        guard let form = try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) else {
            return forbiddenPage()
        }
        let identifier = (form["identifier"] ?? "").trimmingCharacters(in: .whitespaces)
        visit.state.identifier = String(identifier.prefix(320))
        let flowType: FlowType = visit.state.flowType == "signup" ? .signup : .signin
        do {
            let verifier = Base64URL.encode(SecureRandom.bytes(32))
            let step = try await engine.start(
                configId: visit.application.configId,
                request: StartFlowRequest(
                    flowType: flowType, identifier: identifier, codeChallenge: PKCE.challenge(for: verifier)),
                clientAddress: context.remoteAddress, userAgent: request.headers[.userAgent], hostedPages: true,
                traceId: context.traceId)
            visit.state.flowId = step.flowID
            visit.state.sealedFlowToken = try step.flowToken.map { try seal(flowToken: $0.revealed, for: visit) }
            visit.state.flash = nil
            try await save(visit)
            if case .completed(let completion) = step.payload {
                return try await completeSignIn(
                    visit, completion: completion, request: request, strings: HostedStrings.forLocales([]))
            }
        } catch let problem as FlowProblem {
            visit.state.flash = Self.flash(problem, field: "identifier")
            try await save(visit)
        }
        return Self.seeOther("/login")
    }

    /// `POST /login/mode`: switches the identifier page between signing in and signing up.
    func switchMode(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard var visit = try await visit(for: request) else { return expiredPage() }
        guard try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) != nil else {
            return forbiddenPage()
        }
        if visit.state.flowId == nil {
            let signUp = visit.state.flowType != "signup" && visit.application.flowTypes.contains(.signup)
            visit.state.flowType = signUp ? "signup" : "signIn"
            try await save(visit)
        }
        return Self.seeOther("/login")
    }

    /// `POST /login/restart`: "Not you?" — the flow in progress is abandoned and the visit goes
    /// back to an empty identifier page (the client's request stays).
    func restartIdentifier(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard var visit = try await visit(for: request) else { return expiredPage() }
        guard try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) != nil else {
            return forbiddenPage()
        }
        if let flowId = visit.state.flowId, let token = try flowToken(of: visit) {
            try? await engine.cancel(flowId: flowId, flowToken: token, configId: visit.application.configId)
        }
        visit.state.flowId = nil
        visit.state.sealedFlowToken = nil
        visit.state.identifier = nil
        try await save(visit)
        return Self.seeOther("/login")
    }

    /// `POST /login/action`: sends one of the current step's actions with the posted fields.
    func performAction(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard var visit = try await visit(for: request) else { return expiredPage() }
        guard let form = try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) else {
            return forbiddenPage()
        }
        guard let flowId = visit.state.flowId, let flowToken = try flowToken(of: visit) else {
            return Self.seeOther("/login")
        }
        do {
            let step = try await engine.current(
                flowId: flowId, flowToken: flowToken, configId: visit.application.configId, traceId: context.traceId)
            // Only an action the current step offers, sent where the step says: never a path
            // from the browser.
            guard let name = form["action"], let action = step.action(named: name), action.method == "POST" else {
                return Self.seeOther("/login")
            }
            var body: [String: JSONValue] = [:]
            for field in action.fields {
                if field.type == .checkbox {
                    body[field.name] = .bool(form[field.name] != nil)
                } else if field.name == "credential", field.type == .hidden {
                    // A passkey's answer, as the page's script wrote it: JSON, sent as JSON.
                    body[field.name] = try HostedPasskeyCeremony.answer(form[field.name])
                } else if let value = form[field.name] {
                    body[field.name] = .string(value)
                }
            }
            let next = try await flowAPI.perform(
                action, body: body, flowToken: flowToken, configId: visit.application.configId,
                userAgent: request.headers[.userAgent], context: context)
            visit.state.flash = nil
            try await save(visit)
            if let next, case .completed(let completion) = next.payload {
                return try await completeSignIn(
                    visit, completion: completion, request: request,
                    strings: HostedStrings.forLocales(visit.state.request?.uiLocales ?? []))
            }
        } catch let problem as FlowProblem {
            switch problem.problem.action {
            case .restartFlow, .abort:
                return try await restart(visit, after: problem)
            default:
                visit.state.flash = Self.flash(problem, field: nil)
                try await save(visit)
            }
        }
        return Self.seeOther("/login")
    }

    /// `POST /login/cancel`: cancels the flow; an authorization request is answered
    /// `access_denied`.
    func cancel(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard let visit = try await visit(for: request) else { return expiredPage() }
        guard try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) != nil else {
            return forbiddenPage()
        }
        if let flowId = visit.state.flowId, let token = try flowToken(of: visit) {
            try? await engine.cancel(flowId: flowId, flowToken: token, configId: visit.application.configId)
        }
        try await finish(visit)
        let clear = cookies.clear(cookies.flowName)
        guard let authorization = visit.state.request else { return Self.seeOther("/account", cookies: [clear]) }
        var response = refuse(authorization, "access_denied", "The user cancelled the sign-in.")
        response.headers.append(HTTPField(name: .setCookie, value: clear))
        return response
    }

    /// `POST /login/consent`: the user's answer to a consent page.
    func consent(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard let visit = try await visit(for: request) else { return expiredPage() }
        guard let form = try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) else {
            return forbiddenPage()
        }
        guard let authorization = visit.state.request, let sessionId = visit.state.consentFor,
            let session = try await database.read({ try await $0.browserSessions.find(id: sessionId) }),
            session.revokedAt == nil
        else { return expiredPage() }
        try await finish(visit)
        let clear = cookies.clear(cookies.flowName)
        var response: Response
        if form["decision"] == "allow" {
            let now = clock.now().epochMilliseconds
            try await database.write { repositories in
                var scopes = Set(authorization.scope)
                if let previous = try await repositories.consents.find(userId: session.userId, applicationId: visit.application.id) {
                    scopes.formUnion(previous.scope.split(separator: " ").map(String.init))
                }
                try await repositories.consents.grant(
                    ConsentRecord(
                        userId: session.userId, applicationId: visit.application.id,
                        scope: scopes.sorted().joined(separator: " "), grantedAt: now))
            }
            response = try await redirectWithCode(authorization, application: visit.application, session: session)
        } else {
            response = refuse(authorization, "access_denied", "The user did not allow the client.")
        }
        response.headers.append(HTTPField(name: .setCookie, value: clear))
        return response
    }

    // MARK: Completing

    /// The flow completed: opens the browser session, then answers the authorization request
    /// (after consent where it is needed) or goes to the account.
    func completeSignIn(
        _ visit: Visit, completion: CompletedPayload, request: Request, strings: HostedStrings
    ) async throws -> Response {
        let codeHash = sha256Hex(completion.authCode.revealed)
        if visit.state.purpose == .account {
            // The account's changes are saved; the flow's code is never redeemed.
            try await database.write { try await $0.authorizationCodes.delete(hash: codeHash) }
            var done = visit
            done.state.flowId = nil
            done.state.sealedFlowToken = nil
            done.state.flash = BrowserFlowState.Flash(message: strings("account.saved"))
            try await save(done)
            return Self.seeOther("/login")
        }
        let previous = try await sessions.live(token: BrowserCookies.value(cookies.sessionName, in: request))
        let (session, token) = try await database.write { repositories in
            // The flow's own code never leaves the server: the client gets one of its own.
            guard let code = try await repositories.authorizationCodes.find(hash: codeHash), code.usedAt == nil else {
                throw FlowProblem.flowClosed
            }
            try await repositories.authorizationCodes.delete(hash: codeHash)
            return try await self.sessions.open(
                sessionId: code.sessionId, application: visit.application, replacing: previous, in: repositories)
        }
        let sessionCookie = cookies.set(cookies.sessionName, token, maxAge: Int(sessions.lifetime))
        logger.info("browser signed in", metadata: ["client": "\(visit.application.configId)"])
        guard let authorization = visit.state.request else {
            try await finish(visit)
            return Self.seeOther("/account", cookies: [sessionCookie, cookies.clear(cookies.flowName)])
        }
        if try await sessions.needsConsent(
            visit.application, userId: session.userId, scope: authorization.scope, prompt: authorization.prompt)
        {
            var waiting = visit
            waiting.state.flowId = nil
            waiting.state.sealedFlowToken = nil
            waiting.state.consentFor = session.id
            try await save(waiting)
            return Self.seeOther("/login", cookies: [sessionCookie])
        }
        try await finish(visit)
        var response = try await redirectWithCode(authorization, application: visit.application, session: session)
        response.headers.append(HTTPField(name: .setCookie, value: sessionCookie))
        response.headers.append(HTTPField(name: .setCookie, value: cookies.clear(cookies.flowName)))
        return response
    }

    /// The flow cannot go on (expired, closed, refused for good): back to the identifier page
    /// with the reason.
    func restart(_ visit: Visit, after problem: FlowProblem) async throws -> Response {
        var restarted = visit
        restarted.state.flowId = nil
        restarted.state.sealedFlowToken = nil
        restarted.state.flash = BrowserFlowState.Flash(message: problem.problem.detail)
        try await save(restarted)
        return Self.seeOther("/login")
    }

    /// What to show of a refusal: its sentence, and the sentences of its fields.
    static func flash(_ problem: FlowProblem, field: String?) -> BrowserFlowState.Flash {
        var fields: [String: String] = [:]
        for invalid in problem.problem.invalidFields ?? [] {
            fields[invalid.name == "identifier" ? "identifier" : invalid.name] = invalid.reason
        }
        if let field, fields.isEmpty, problem.problem.code == .invalidRequest { fields[field] = problem.problem.detail }
        return BrowserFlowState.Flash(message: problem.problem.detail, fields: fields)
    }

    // MARK: Pages

    func expiredPage() -> Response {
        let strings = HostedStrings.english
        return errorPage(
            title: strings("error.expired.title"), text: strings("error.expired.text"), status: 410,
            cookies: [cookies.clear(cookies.flowName)])
    }

    func forbiddenPage() -> Response {
        let strings = HostedStrings.english
        return errorPage(title: strings("error.forbidden.title"), text: strings("error.forbidden.text"), status: 403)
    }

    /// The first page: the identifier, with the switch between signing in and signing up.
    func identifierPage(_ visit: Visit, theme: HostedTheme, strings: HostedStrings, flash: BrowserFlowState.Flash?)
        -> HostedPage
    {
        let signUp = visit.state.flowType == "signup"
        var page = HostedPage(
            title: strings(signUp ? "identifier.signUp.title" : "identifier.signIn.title"),
            subtitle: strings("subtitle.continueTo", ["application": visit.application.name]), theme: theme)
        if let flash, flash.fields.isEmpty { page.messages.append(HostedMessage(level: .error, text: flash.message)) }
        page.forms.append(
            HostedForm(
                action: "/login/identify", csrfToken: visit.record.csrfToken,
                fields: [
                    HostedField(
                        name: "identifier", label: strings("identifier.label"), kind: .text, value: visit.state.identifier,
                        autocomplete: "username", maxLength: 320, hint: strings("identifier.hint"),
                        error: flash?.fields["identifier"])
                ],
                submitLabel: strings("identifier.continue")))
        if visit.application.flowTypes.contains(.signup), visit.application.flowTypes.contains(.signin) {
            page.forms.append(
                HostedForm(
                    action: "/login/mode", csrfToken: visit.record.csrfToken,
                    submitLabel: strings(signUp ? "identifier.toSignIn" : "identifier.toSignUp"), style: .link))
        }
        page.forms.append(
            HostedForm(action: "/login/cancel", csrfToken: visit.record.csrfToken, submitLabel: strings("action.cancel"), style: .link))
        return page
    }

    /// Asks the user to allow a client that is not first-party.
    func consentPage(_ visit: Visit, browserSessionId: String, theme: HostedTheme, strings: HostedStrings) async throws
        -> HostedPage
    {
        let name = visit.application.name
        var page = HostedPage(title: strings("consent.title", ["application": name]), theme: theme)
        let links = visit.application.links ?? ClientLinks()
        if let logo = links.logo {
            page.displays.append(.image(url: logo, alt: strings("consent.logo", ["application": name])))
        }
        let scopes = visit.state.request?.scope ?? []
        page.displays.append(
            .list(
                label: strings("consent.intro", ["application": name]),
                items: scopes.map { HostedListItem(title: strings("scope.\($0)"), detail: nil) }))
        if let session = try await database.read({ try await $0.browserSessions.find(id: browserSessionId) }),
            let user = try await database.read({ try await $0.users.find(id: session.userId) })
        {
            page.displays.append(.text(strings("consent.signedInAs", ["user": user.email ?? user.phone ?? user.id])))
        }
        page.forms = [
            HostedForm(
                action: "/login/consent", csrfToken: visit.record.csrfToken,
                hidden: [HostedHiddenValue(name: "decision", value: "allow")], submitLabel: strings("consent.allow")),
            HostedForm(
                action: "/login/consent", csrfToken: visit.record.csrfToken,
                hidden: [HostedHiddenValue(name: "decision", value: "deny")], submitLabel: strings("consent.deny"),
                style: .secondary),
        ]
        // The client's own pages, as it registered them (https, checked at registration).
        for (url, key) in [(links.policy, "consent.policy"), (links.terms, "consent.terms"), (links.home, "consent.home")] {
            if let url { page.links.append(HostedLink(text: strings(key, ["application": name]), href: url)) }
        }
        return page
    }
}
