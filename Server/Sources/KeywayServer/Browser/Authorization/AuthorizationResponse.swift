import Foundation
import HTTPTypes
import Hummingbird

/// The answer to the client at its redirect URI (RFC 6749 §4.1.2, RFC 9207): a `303` to the URI
/// with the parameters in its query, or, with `response_mode=form_post`, a page that posts them
/// there (OAuth 2.0 Form Post Response Mode).
enum AuthorizationResponse {
    /// The parameters of a success.
    static func success(code: String, state: String?, issuer: String) -> [(String, String)] {
        [("code", code)] + (state.map { [("state", $0)] } ?? []) + [("iss", issuer)]
    }

    /// The parameters of an error.
    static func error(_ error: String, description: String, state: String?, issuer: String) -> [(String, String)] {
        [("error", error), ("error_description", description)] + (state.map { [("state", $0)] } ?? [])
            + [("iss", issuer)]
    }

    /// The response sending `parameters` to `redirectURI` in `mode`.
    static func send(
        _ parameters: [(String, String)], to redirectURI: String, mode: AuthorizationRequest.ResponseMode
    ) -> Response {
        switch mode {
        case .query:
            let query = parameters.map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
            let separator = redirectURI.contains("?") ? "&" : "?"
            return Response(
                status: .seeOther,
                headers: [.location: redirectURI + separator + query, .cacheControl: "no-store", HTTPField.Name("Referrer-Policy")!: "no-referrer"])
        case .formPost:
            let inputs = parameters.map {
                "<input type=\"hidden\" name=\"\(HTML.escape($0.0))\" value=\"\(HTML.escape($0.1))\">"
            }.joined()
            // Drawn here rather than by the page renderer, which posts only to https or to the
            // server itself: a native client's redirect URI may be a loopback http one.
            let html = """
                <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Continuing…</title>\
                <meta name="viewport" content="width=device-width, initial-scale=1">\
                <link rel="stylesheet" href="\(HostedPageRenderer.stylesheetHref)">\
                <script src="/login/assets/form-post.js" defer></script></head>\
                <body class="kw-body"><div class="kw-page"><main class="kw-card">\
                <h1 class="kw-title">Continuing…</h1>\
                <form method="post" action="\(HTML.escape(redirectURI))" id="kw-form-post">\(inputs)\
                <div class="kw-actions"><button type="submit" class="kw-button kw-button-primary">Continue to the \
                application</button></div></form></main></div></body></html>
                """
            var headers = PageSecurity.headers(
                csp: PageSecurity.contentSecurityPolicy(
                    stylesheetOrigin: nil, formTargets: PageSecurity.formTarget(of: redirectURI).map { [$0] } ?? []))
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
        }
    }

    /// The script of a form-post page: it submits the form once loaded (served from the server's
    /// own origin, so the page needs no inline script).
    static let formPostScript = "document.getElementById('kw-form-post').submit();\n"

    private static let allowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()

    /// Percent-encodes a query component (RFC 3986 unreserved characters kept).
    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}

/// HTML escaping of text and attribute values.
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
