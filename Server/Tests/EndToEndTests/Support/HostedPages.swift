import Crypto
import Foundation
import KeywayJOSE
import KeywayTestSupport

// Helpers of the tests of the browser front door: redirect URIs and applications set up on the
// test server, and a browser without JavaScript that goes through the hosted pages.

extension TestServer {
    /// Registers `uri` as a redirect URI of `kind` (`login` or `logout`) of the application
    /// `configId`, with SQL, beside those it has (the dev application has its loopback ones).
    func registerRedirectURI(_ uri: String, kind: String = "login", configId: String = TestServer.configId) async throws {
        precondition(!uri.contains("'") && !configId.contains("'"))
        try await execute(
            """
            INSERT INTO application_redirect_uris (application_id, kind, uri)
            SELECT id, '\(kind)', '\(uri)' FROM applications WHERE config_id = '\(configId)'
            ON CONFLICT DO NOTHING
            """)
    }

    /// Creates an application in the dev application's project through the admin API
    /// (`projectId`); answers its client ID and, for a confidential one, its secret. The server
    /// was started with ``testAdminToken``.
    func addProjectApplication(name: String, confidential: Bool = false) async throws -> (configId: String, secret: String?) {
        let dev = try await admin("GET", "/admin/applications/\(TestServer.configId)")
        guard let projectId = dev.json["projectId"] as? String else {
            throw TestFailure("The dev application has no project: \(dev.status) \(dev.json)")
        }
        let created = try await admin(
            "POST", "/admin/applications",
            ["name": name, "clientType": confidential ? "confidential" : "public", "projectId": projectId])
        guard created.status == 201, let configId = created.json["configId"] as? String,
            created.json["projectId"] as? String == projectId
        else {
            throw TestFailure("The application was not created in the project: \(created.status) \(created.json)")
        }
        return (configId, created.json["clientSecret"] as? String)
    }
}

/// A form of a hosted page, as a browser sees it.
struct HTMLForm: Sendable {
    var action: String
    var method: String
    /// The inputs by name, with their values as the page has them.
    var values: [String: String]
    /// The `type` of each input by name.
    var types: [String: String]
    var button: String

    /// The forms of `html`.
    static func all(in html: String) -> [HTMLForm] {
        matches(#"<form\b([^>]*)>(.*?)</form>"#, in: html).map { groups in
            let attributes = Self.attributes(groups[1])
            var values: [String: String] = [:]
            var types: [String: String] = [:]
            for input in matches(#"<(?:input|select|textarea)\b([^>]*)>"#, in: groups[2]) {
                let attributes = Self.attributes(input[1])
                guard let name = attributes["name"] else { continue }
                values[name] = attributes["value"] ?? ""
                types[name] = attributes["type"] ?? "text"
            }
            let button = matches(#"<button\b[^>]*>(.*?)</button>"#, in: groups[2]).first?[1] ?? ""
            return HTMLForm(
                action: attributes["action"] ?? "", method: (attributes["method"] ?? "get").lowercased(), values: values,
                types: types, button: unescape(button.replacingOccurrences(of: #"<[^>]*>"#, with: "", options: .regularExpression))
                    .trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// The form's action as a path of the server (an absolute URL of the server is reduced to its path).
    var path: String {
        if action.hasPrefix("/") { return action }
        return URLComponents(string: action).map { $0.percentEncodedPath } ?? action
    }

    static func attributes(_ text: String) -> [String: String] {
        var attributes: [String: String] = [:]
        for groups in matches(#"([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*"([^"]*)""#, in: text) {
            attributes[groups[1].lowercased()] = unescape(groups[2])
        }
        return attributes
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators, .caseInsensitive])
        else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).map { match in
            (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}

/// A browser without JavaScript on the hosted pages: it keeps the server's cookies, follows the
/// server's redirects, reads each page's forms and posts them with the server's `Origin`, as
/// browsers do. It stops where the server sends it elsewhere (the client's redirect URI).
final class PageAgent {
    let server: TestServer
    private(set) var cookies: [String: String] = [:]

    init(server: TestServer) {
        self.server = server
    }

    var origin: String { server.baseURL.absoluteString }

    /// Where a navigation ended: a page of the server, or a redirect out of it.
    struct Page {
        var status: Int
        var headers: [String: String]
        var html: String
        /// The URL the server sent the browser to outside itself, if it did.
        var redirect: URLComponents?
        /// The path of the last page of the server.
        var path: String

        var forms: [HTMLForm] { HTMLForm.all(in: html) }

        /// The first form posting to `path` whose hidden values include `hidden`.
        func form(_ path: String, _ hidden: [String: String] = [:]) -> HTMLForm? {
            forms.first { form in form.path == path && hidden.allSatisfy { form.values[$0.key] == $0.value } }
        }

        /// The parameters of the redirect's query.
        var parameters: [String: String] {
            var parameters: [String: String] = [:]
            for item in redirect?.queryItems ?? [] { parameters[item.name] = item.value ?? "" }
            return parameters
        }

        /// The page's text without its markup.
        var text: String {
            HTMLForm.unescape(html.replacingOccurrences(of: #"<[^>]*>"#, with: " ", options: .regularExpression))
        }
    }

    /// Opens `target` (a path of the server, or an absolute URL of it).
    func open(_ target: String) async throws -> Page {
        try await send("GET", path(of: target), body: nil, origin: nil)
    }

    /// Posts `fields` to `target` as a form, from `origin` (the server's own by default; `nil`
    /// sends no `Origin`).
    func post(_ target: String, _ fields: [String: String], origin: String?? = .none) async throws -> Page {
        let from: String? =
            switch origin {
            case .none: self.origin
            case .some(let value): value
            }
        return try await send("POST", path(of: target), body: Self.encode(fields), origin: from)
    }

    /// Submits `form` with its values, `changes` applied (a `nil` change drops the input).
    func submit(_ form: HTMLForm, _ changes: [String: String?] = [:]) async throws -> Page {
        var values = form.values
        for (name, value) in changes { values[name] = value }
        return try await post(form.path, values)
    }

    static func encode(_ fields: [String: String]) -> Data {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return Data(
            fields.sorted { $0.key < $1.key }
                .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
                .joined(separator: "&").utf8)
    }

    private func path(of target: String) -> String {
        target.hasPrefix(origin) ? String(target.dropFirst(origin.count)) : target
    }

    private func send(_ method: String, _ path: String, body: Data?, origin: String?) async throws -> Page {
        var method = method
        var path = path
        var body = body
        for _ in 0..<10 {
            var headers: [String: String] = [:]
            if !cookies.isEmpty {
                headers["Cookie"] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            }
            if method == "POST" {
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                if let origin { headers["Origin"] = origin }
            }
            let response = try await RawHTTPClient.send(
                method: method, host: "127.0.0.1", port: server.port, path: path, headers: headers, body: body)
            for cookie in response.setCookies { store(cookie) }
            guard [301, 302, 303, 307].contains(response.status), let location = response.headers["location"] else {
                return Page(
                    status: response.status, headers: response.headers, html: String(decoding: response.body, as: UTF8.self),
                    redirect: nil, path: path)
            }
            if location.hasPrefix("/") || location.hasPrefix(self.origin + "/") {
                path = self.path(of: location)
                if response.status != 307 {
                    method = "GET"
                    body = nil
                }
                continue
            }
            return Page(
                status: response.status, headers: response.headers, html: String(decoding: response.body, as: UTF8.self),
                redirect: URLComponents(string: location), path: path)
        }
        throw TestFailure("Too many redirects from \(path).")
    }

    private func store(_ header: String) {
        let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return }
        let name = String(pair[..<equals])
        let value = String(pair[pair.index(after: equals)...])
        if value.isEmpty || parts.contains(where: { $0.lowercased() == "max-age=0" }) {
            cookies[name] = nil
        } else {
            cookies[name] = value
        }
    }

    /// Signs in through the pages from `page` with a code sent to `email` (typing the identifier
    /// unless it is prefilled, answering consent with `consent`); answers the page where the
    /// server sent the browser out (or the consent page, when `consent` is `nil`), and the
    /// steps shown.
    func signIn(from page: Page, email: String, consent: String? = nil) async throws -> (Page, steps: [String]) {
        var page = page
        var steps: [String] = []
        for _ in 0..<8 {
            // Out of the server: a redirect, or a form-post page posting to the client.
            if page.redirect != nil || page.forms.contains(where: { !$0.action.hasPrefix("/") && !$0.action.hasPrefix(origin) }) {
                return (page, steps)
            }
            if let identify = page.form("/login/identify") {
                steps.append("identify")
                let typed = identify.values["identifier"].flatMap { $0.isEmpty ? nil : $0 } ?? email
                page = try await submit(identify, ["identifier": typed])
            } else if let code = page.form("/login/action", ["action": "submitCode"]) {
                steps.append("submitCode")
                page = try await submit(code, ["code": try await server.latestCode(to: email)])
            } else if page.form("/login/consent") != nil {
                guard let consent, let form = page.form("/login/consent", ["decision": consent]) else { return (page, steps) }
                steps.append("consent")
                page = try await submit(form)
            } else {
                throw TestFailure("A page without a known step (\(page.status) \(page.path)): \(page.text)")
            }
        }
        return (page, steps)
    }
}

/// An OpenID Connect client of the tests: builds authorization requests (PKCE S256) and redeems codes.
struct TestRelyingParty {
    var clientId = TestServer.configId
    var clientSecret: String?
    var redirectURI = "http://127.0.0.1:4711/callback"
    var scope = "openid email offline_access"

    /// One authorization request's secrets.
    struct Request {
        var state = Base64URL.encode(Array(SHA256.hash(data: Data(UUID().uuidString.utf8))).prefix(12))
        var nonce = UUID().uuidString
        var verifier = Base64URL.encode(Array(SHA256.hash(data: Data(UUID().uuidString.utf8))))
        var challenge: String { Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8)))) }
    }

    /// The parameters of an authorization request (`nil` values dropped).
    func parameters(_ request: Request, _ extra: [String: String?] = [:]) -> [String: String] {
        var parameters: [String: String?] = [
            "response_type": "code", "client_id": clientId, "redirect_uri": redirectURI, "scope": scope,
            "state": request.state, "nonce": request.nonce, "code_challenge": request.challenge,
            "code_challenge_method": "S256",
        ]
        for (name, value) in extra { parameters[name] = value }
        return parameters.compactMapValues { $0 }
    }

    /// The path of an authorization request.
    func authorizePath(_ request: Request, _ extra: [String: String?] = [:]) -> String {
        var components = URLComponents()
        components.path = "/oauth2/authorize"
        components.queryItems = parameters(request, extra).sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        // `+` is a space in a query: encode it.
        return components.url!.absoluteString.replacingOccurrences(of: "+", with: "%2B")
    }

    /// Redeems `code` at the token endpoint.
    func redeem(
        _ server: TestServer, code: String, request: Request, redirectURI: String?? = .none
    ) async throws -> (status: Int, json: [String: Any]) {
        var form = ["grant_type": "authorization_code", "code": code, "code_verifier": request.verifier, "client_id": clientId]
        switch redirectURI {
        case .none: form["redirect_uri"] = self.redirectURI
        case .some(let value): form["redirect_uri"] = value
        }
        if let clientSecret { form["client_secret"] = clientSecret }
        return try await server.token(form)
    }

    /// The claims of a JWT (its signature is checked elsewhere).
    static func claims(_ jwt: String) throws -> [String: Any] {
        let parts = jwt.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let claims = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
        else { throw TestFailure("Not a JWT: \(jwt)") }
        return claims
    }
}
