import Foundation
import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol
import Logging

/// The hosted pages: the browser side of `/oauth2/authorize`, sign-out and account management.
/// A visit (``BrowserFlowRecord``, behind the flow cookie) drives one flow of the engine through
/// ``FlowAPIClient``; when it completes, a browser session (behind the session cookie) is opened
/// and the authorization request is answered from it — as later requests of any application of
/// the project are, without a page (single sign-on).
struct HostedLogin: Sendable {
    let database: any Database
    let clock: any ServerClock
    let engine: FlowEngine
    let flowAPI: FlowAPIClient
    let sessions: BrowserSessions
    let keys: SigningKeyRing
    let issuer: @Sendable () -> String
    let secrets: SecretBox
    let logger: Logger
    /// The user's PowerAuth activations and the codes that activate another device.
    let activations: PowerAuthAdministration
    /// How long a visit may take.
    let visitLifetime: TimeInterval

    var cookies: BrowserCookies { BrowserCookies(issuer: issuer()) }

    // MARK: Visits

    /// A visit and its state.
    struct Visit: Sendable {
        var record: BrowserFlowRecord
        var state: BrowserFlowState
        var application: ApplicationRecord
    }

    /// The visit behind the request's flow cookie, if it is live.
    func visit(for request: Request) async throws -> Visit? {
        guard let token = BrowserCookies.value(cookies.flowName, in: request) else { return nil }
        let now = clock.now().epochMilliseconds
        return try await database.read { repositories -> Visit? in
            guard let record = try await repositories.browserFlows.find(tokenHash: sha256Hex(token)), now < record.expiresAt,
                let application = try await repositories.applications.find(id: record.applicationId),
                let state = try? JSONDecoder().decode(BrowserFlowState.self, from: Data(record.state.utf8))
            else { return nil }
            return Visit(record: record, state: state, application: application)
        }
    }

    /// Starts a visit; returns it and the `Set-Cookie` of its cookie. Anyone can make the server
    /// keep a visit (a relying party sends any browser here), so a client network starts at most
    /// the flow starts per address of ``RateLimits`` in their window; beyond, `429` and nothing
    /// kept. A visit is deleted once it expires.
    func startVisit(_ state: BrowserFlowState, application: ApplicationRecord) async throws -> (Visit, cookie: String) {
        let now = clock.now().epochMilliseconds
        let network = RequestClient.address.map(ClientAddress.hash)
        let engine = self.engine
        let token = SecureRandom.token(prefix: "kbf")
        let record = BrowserFlowRecord(
            id: SecureRandom.identifier(prefix: "bfl"), tokenHash: sha256Hex(token), applicationId: application.id,
            state: try Self.encode(state), csrfToken: Base64URL.encode(SecureRandom.bytes(32)), createdAt: now,
            expiresAt: now + Int64(visitLifetime * 1000))
        try await database.write { repositories in
            if let network {
                try await engine.consume(
                    "visit-ip", network, limit: engine.limits.rateLimits.flowStartsPerAddress, now: now, in: repositories)
            }
            try await repositories.browserFlows.insert(record)
        }
        return (
            Visit(record: record, state: state, application: application),
            cookies.set(cookies.flowName, token, maxAge: Int(visitLifetime))
        )
    }

    /// Writes the visit's state back.
    func save(_ visit: Visit) async throws {
        let json = try Self.encode(visit.state)
        try await database.write { try await $0.browserFlows.updateState(json, id: visit.record.id) }
    }

    /// Ends the visit.
    func finish(_ visit: Visit) async throws {
        try await database.write { try await $0.browserFlows.delete(id: visit.record.id) }
    }

    static func encode(_ state: BrowserFlowState) throws -> String {
        String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
    }

    /// The flow token of the visit's flow.
    func flowToken(of visit: Visit) throws -> String? {
        guard let sealed = visit.state.sealedFlowToken else { return nil }
        return String(decoding: try secrets.open(sealed, purpose: "browser-flow:\(visit.record.id)"), as: UTF8.self)
    }

    func seal(flowToken: String, for visit: Visit) throws -> String {
        try secrets.seal(Array(flowToken.utf8), purpose: "browser-flow:\(visit.record.id)")
    }

    // MARK: Forms

    /// The posted form, checked: from the server's own origin and with the visit's token
    /// (compared in constant time). `nil` when refused.
    func checkedForm(_ request: Request, context: KeywayRequestContext, csrfToken: String) async throws
        -> [String: String]?
    {
        // The body is read first, also for a post that is refused: a request whose body was left
        // unread can hold its connection open past a graceful shutdown.
        let data = try await RequestDecoding.body(request, context: context)
        guard PageSecurity.isSameOrigin(request, issuer: issuer()) else { return nil }
        guard let form = try? FormURLEncoded.parse(data), let sent = form["csrf_token"],
            ConstantTime.equals(Array(sent.utf8), Array(csrfToken.utf8))
        else { return nil }
        return form
    }

    // MARK: Pages

    /// The project's theme: its stored settings, or its name.
    func theme(for application: ApplicationRecord) async -> HostedTheme {
        let stored = (try? await database.read { try await $0.applications.theme(projectId: application.projectId) }) ?? nil
        if let data = stored?.data(using: .utf8),
            let theme = try? JSONDecoder().decode(HostedTheme.self, from: data)
        {
            return theme
        }
        let name = try? await database.read { repositories in
            try await repositories.sql.raw("SELECT name FROM projects WHERE id = \(bind: application.projectId)").first()?
                .decode(column: "name", as: String.self)
        }
        return HostedTheme(name: (name ?? nil) ?? application.name)
    }

    /// A rendered page with the security headers; `formTargets` are the origins its forms may
    /// end at (the client's redirect URI).
    func respond(
        _ page: HostedPage, strings: HostedStrings, formTargets: [String] = [], cookies setCookies: [String] = []
    ) -> Response {
        let html = HostedPageRenderer().render(
            page, strings: strings, themeStylesheetPath: HostedPageRenderer.themeStylesheetPath(page.theme))
        let stylesheetOrigin = page.theme.stylesheetURL.flatMap(PageSecurity.formTarget(of:))
        var headers = PageSecurity.headers(
            csp: PageSecurity.contentSecurityPolicy(stylesheetOrigin: stylesheetOrigin, formTargets: formTargets))
        for cookie in setCookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(
            status: HTTPResponse.Status(code: page.status), headers: headers,
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// An error page.
    func errorPage(
        title: String, text: String, status: Int, theme: HostedTheme? = nil, strings: HostedStrings = .english,
        cookies setCookies: [String] = []
    ) -> Response {
        var page = HostedPage(title: title, theme: theme ?? HostedTheme(name: "Keyway"))
        page.messages = [HostedMessage(level: .error, text: text)]
        page.status = status
        return respond(page, strings: strings, cookies: setCookies)
    }

    /// A URI from a request as a page quotes it: at most 200 characters (with `…` after), and
    /// nothing but what it says — the page escapes it.
    static func shown(_ uri: String) -> String {
        uri.count <= 200 ? uri : String(uri.prefix(200)) + "…"
    }

    /// A `303` to `location` (a post answered, no resubmission on reload).
    static func seeOther(_ location: String, cookies setCookies: [String] = []) -> Response {
        var headers: HTTPFields = [.location: location, .cacheControl: "no-store"]
        for cookie in setCookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// The `form-action` targets of a visit: its client's redirect URI.
    static func formTargets(_ state: BrowserFlowState) -> [String] {
        [state.request?.redirectURI, state.logout?.redirectURI].compactMap { $0 }.compactMap(PageSecurity.formTarget(of:))
    }
}
