import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The routes of the browser front door: `/oauth2/authorize`, `/oauth2/par`, `/oauth2/logout`,
/// the hosted pages under `/login` and `/account`, and their assets.
struct HostedLoginRoutes {
    let login: HostedLogin

    func register(on router: RouteTable) {
        // A relying party may send any browser here; the pages' own forms need the visit.
        let anyone = router.declaring(.anyone)
        let browser = router.declaring(.browser)
        let signedIn = router.declaring(.browserSession)
        anyone.get("oauth2/authorize") { request, context in
            await page(request, context) {
                try await login.authorize(Self.query(request), request: request)
            }
        }
        anyone.post("oauth2/authorize") { request, context in
            await page(request, context) {
                guard let form = try await Self.form(request, context) else {
                    return login.errorPage(
                        title: HostedStrings.english("error.title"), text: "The request is not valid form data.",
                        status: 400)
                }
                return try await login.authorize(form, request: request)
            }
        }
        router.declaring(.client).post("oauth2/par") { _, context in
            do {
                let call = try context.clientCall()
                let pushed = try await login.push(form: call.form, application: call.application)
                return try HTTPResponses.json(pushed, status: .created, extraHeaders: [HTTPResponses.pragmaHeader: "no-cache"])
            } catch let failure as OAuthFailure {
                return HTTPResponses.oauthError(failure)
            } catch let problem as FlowProblem where problem.problem.status == 429 {
                var failure = OAuthFailure.temporarilyUnavailable
                failure.status = 429
                failure.body.errorDescription = problem.problem.detail
                failure.retryAfterSeconds = problem.problem.retryAfterSeconds
                return HTTPResponses.oauthError(failure)
            } catch is any TransientDatabaseFailure {
                return HTTPResponses.oauthError(.temporarilyUnavailable)
            }
        }
        anyone.get("oauth2/logout") { request, context in
            await page(request, context) { try await login.endSession(Self.query(request), request: request) }
        }
        anyone.post("oauth2/logout") { request, context in
            await page(request, context) {
                guard let form = try await Self.form(request, context) else {
                    return login.errorPage(
                        title: HostedStrings.english("error.title"), text: "The request is not valid form data.",
                        status: 400)
                }
                return try await login.endSession(form, request: request)
            }
        }
        browser.get("login") { request, context in await page(request, context) { try await login.showLogin(request, context: context) } }
        browser.post("login/identify") { request, context in await page(request, context) { try await login.identify(request, context: context) } }
        browser.post("login/mode") { request, context in await page(request, context) { try await login.switchMode(request, context: context) } }
        browser.post("login/action") { request, context in await page(request, context) { try await login.performAction(request, context: context) } }
        browser.post("login/cancel") { request, context in await page(request, context) { try await login.cancel(request, context: context) } }
        browser.post("login/restart") { request, context in
            await page(request, context) { try await login.restartIdentifier(request, context: context) }
        }
        browser.get("login/federation") { request, context in
            await page(request, context) { try await login.federationReturn(request, context: context) }
        }
        browser.post("login/consent") { request, context in await page(request, context) { try await login.consent(request, context: context) } }
        browser.post("login/logout") { request, context in await page(request, context) { try await login.confirmLogout(request, context: context) } }
        signedIn.get("account") { request, context in await page(request, context) { try await login.showAccount(request, context: context) } }
        signedIn.post("account/consents/revoke") { request, context in
            await page(request, context) { try await login.revokeConsent(request, context: context) }
        }
        signedIn.post("account/logout") { request, context in await page(request, context) { try await login.accountLogout(request, context: context) } }
        router.declaring(.flow).get("link/:token") { request, context in await page(request, context) { try await login.showLink(request, context: context) } }
        router.declaring(.flow).post("link/:token") { request, context in await page(request, context) { try await login.postLink(request, context: context) } }
        anyone.get("login/assets/keyway.css") { _, _ in
            Self.asset(HostedPageRenderer.stylesheet, type: "text/css; charset=utf-8")
        }
        anyone.get("login/assets/theme/:file") { _, context in
            guard let css = HostedThemeStylesheet.css(file: try context.parameters.require("file")) else {
                return Response(status: .notFound, headers: [.contentType: "text/css; charset=utf-8"])
            }
            return Self.asset(css, type: "text/css; charset=utf-8")
        }
        browser.post("login/passkey") { request, context in
            await page(request, context) { try await login.passkeySignIn(request, context: context) }
        }
        anyone.get("login/assets/passkey.js") { _, _ in
            Self.asset(HostedPageRenderer.passkeyScript, type: "text/javascript; charset=utf-8")
        }
        anyone.get("login/assets/form-post.js") { _, _ in
            Self.asset(AuthorizationResponse.formPostScript, type: "text/javascript; charset=utf-8")
        }
    }

    /// Runs a page handler; a failure becomes an error page (never a JSON problem in a browser).
    private func page(
        _ request: Request, _ context: KeywayRequestContext, _ handler: () async throws -> Response
    ) async -> Response {
        do {
            return try await handler()
        } catch let problem as FlowProblem where problem.problem.status == 429 {
            // Too many visits from this client's network: nothing was kept.
            var response = login.errorPage(title: HostedStrings.english("error.title"), text: problem.problem.detail, status: 429)
            response.headers[.retryAfter] = problem.problem.retryAfterSeconds.map(String.init) ?? "60"
            return response
        } catch is any TransientDatabaseFailure {
            var response = login.errorPage(
                title: HostedStrings.english("error.title"),
                text: HostedStrings.english("error.generic.text", ["traceId": context.traceId]), status: 503)
            response.headers[.retryAfter] = "1"
            return response
        } catch let problem as FlowProblem where problem.problem.status == 413 {
            return login.errorPage(title: HostedStrings.english("error.title"), text: problem.problem.detail, status: 413)
        } catch {
            login.logger.error(
                "hosted page failed: \(String(describing: type(of: error)))",
                metadata: ["traceId": "\(context.traceId)", "route": "\(RequestLogMiddleware.route(context))"])
            return login.errorPage(
                title: HostedStrings.english("error.title"),
                text: HostedStrings.english("error.generic.text", ["traceId": context.traceId]), status: 500)
        }
    }

    /// The query's parameters; a repeated one makes the request invalid (it is dropped, and the
    /// parameter's absence is then reported).
    static func query(_ request: Request) -> [String: String] {
        guard let query = request.uri.query, let parsed = try? FormURLEncoded.parse(Data(query.utf8)) else { return [:] }
        return parsed
    }

    /// A posted form's parameters, or `nil` when the body is not form data or repeats a parameter.
    static func form(_ request: Request, _ context: KeywayRequestContext) async throws -> [String: String]? {
        if let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            return nil
        }
        let data = try await RequestDecoding.body(request, context: context)
        return try? FormURLEncoded.parse(data)
    }

    private static func asset(_ text: String, type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "public, max-age=3600", HTTPField.Name("X-Content-Type-Options")!: "nosniff"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
