import Foundation
import HTTPTypes
import Hummingbird

/// The headers every hosted page is served with, and the origin check of every form post.
enum PageSecurity {
    /// The `Content-Security-Policy` of a page: no inline script or style, nothing framed,
    /// forms posting only here (and to `formTargets`, the origins a sign-in may end at — browsers
    /// apply `form-action` to the redirect that follows a post).
    static func contentSecurityPolicy(stylesheetOrigin: String?, formTargets: [String]) -> String {
        let styles = ["'self'"] + (stylesheetOrigin.map { [$0] } ?? [])
        let forms = ["'self'"] + formTargets
        return [
            "default-src 'none'", "script-src 'self'", "style-src \(styles.joined(separator: " "))",
            "img-src 'self' https: data:", "form-action \(forms.joined(separator: " "))", "frame-ancestors 'none'",
            "base-uri 'none'",
        ].joined(separator: "; ")
    }

    /// The origin (`scheme://host[:port]`) of a URI for `form-action`, or the scheme alone
    /// (`com.example.app:`) for a private-use one.
    static func formTarget(of uri: String) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
            return nil
        }
        guard scheme == "http" || scheme == "https" else { return "\(scheme):" }
        guard let host = components.host else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)\(components.port.map { ":\($0)" } ?? "")"
    }

    /// The headers of an HTML answer.
    ///
    /// The referrer policy is `same-origin`, not `no-referrer`: under `no-referrer` browsers send
    /// `Origin: null` with a form post (Fetch, "serializing a request origin"), and every post of
    /// the pages would fail the origin check. `same-origin` still sends nothing to other origins.
    static func headers(csp: String) -> HTTPFields {
        [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", HTTPField.Name("Pragma")!: "no-cache",
            HTTPField.Name("Content-Security-Policy")!: csp, HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            HTTPField.Name("Referrer-Policy")!: "same-origin", HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
    }

    /// Whether a form post comes from the server's own pages: its `Origin` (or, without one, its
    /// `Referer`) is the issuer's origin. A post that names neither is refused too: every browser
    /// sends `Origin` with a form post.
    static func isSameOrigin(_ request: Request, issuer: String) -> Bool {
        guard let own = formTarget(of: issuer) else { return false }
        if let origin = request.headers[.origin] {
            return origin.lowercased() == own.lowercased()
        }
        if let referer = request.headers[.referer], let from = formTarget(of: referer) {
            return from.lowercased() == own.lowercased()
        }
        return false
    }
}
