import Crypto
import Foundation
import Mustache

/// Draws a ``HostedPage`` as a complete HTML document with the mustache templates of
/// `Resources/HostedPages/templates`.
///
/// The document needs no inline script and no inline style (a page with a passkey ceremony loads
/// the one script, ``passkeyScript``, from `script-src 'self'`), so it is served under a Content-Security-Policy
/// of `default-src 'none'; style-src 'self'` (plus the origin of the theme's `stylesheetURL`),
/// `img-src 'self'` (plus the origin of the theme's `logoURL`) and `form-action 'self'`. It links,
/// in order: the built-in stylesheet (``stylesheetHref``, served from ``stylesheetPath`` with the
/// contents of ``stylesheet``), the theme's colour stylesheet when a path is given (see
/// ``themeStylesheet(_:)`` and ``themeStylesheetPath(_:)``), and the theme's own `https` stylesheet.
struct HostedPageRenderer: Sendable {
    /// Where the controller serves ``stylesheet``.
    static let stylesheetPath = "/login/assets/keyway.css"

    /// The built-in stylesheet (`Resources/HostedPages/keyway.css`), loaded once.
    static let stylesheet: String = {
        guard let url = Bundle.module.url(forResource: "keyway", withExtension: "css", subdirectory: "HostedPages"),
            let data = try? Data(contentsOf: url)
        else { preconditionFailure("HostedPages/keyway.css is missing from the KeywayServer resources") }
        return String(decoding: data, as: UTF8.self)
    }()

    /// The link to ``stylesheet`` the pages use: ``stylesheetPath`` with a `v` query of the file's
    /// hash, so that the stylesheet can be cached for long and a new one is fetched when it changes.
    static let stylesheetHref: String = {
        let digest = SHA256.hash(data: Data(stylesheet.utf8))
        return stylesheetPath + "?v=" + digest.prefix(6).map { String(format: "%02x", $0) }.joined()
    }()

    /// Where the controller serves ``passkeyScript``.
    static let passkeyScriptPath = "/login/assets/passkey.js"

    /// The script of the passkey ceremonies (`Resources/HostedPages/passkey.js`), loaded once: the
    /// only script of the hosted pages, on pages that run a ceremony.
    static let passkeyScript: String = {
        guard let url = Bundle.module.url(forResource: "passkey", withExtension: "js", subdirectory: "HostedPages"),
            let data = try? Data(contentsOf: url)
        else { preconditionFailure("HostedPages/passkey.js is missing from the KeywayServer resources") }
        return String(decoding: data, as: UTF8.self)
    }()

    /// The link to ``passkeyScript``, versioned by its hash as ``stylesheetHref`` is.
    static let passkeyScriptHref: String = {
        let digest = SHA256.hash(data: Data(passkeyScript.utf8))
        return passkeyScriptPath + "?v=" + digest.prefix(6).map { String(format: "%02x", $0) }.joined()
    }()

    /// The text of each template, by its file name without `.mustache`, loaded once; `page` is the document.
    static let templates: [String: String] = {
        guard
            let page = Bundle.module.url(
                forResource: "page", withExtension: "mustache", subdirectory: "HostedPages/templates"),
            let names = try? FileManager.default.contentsOfDirectory(atPath: page.deletingLastPathComponent().path)
        else { preconditionFailure("HostedPages/templates is missing from the KeywayServer resources") }
        var templates: [String: String] = [:]
        for name in names where name.hasSuffix(".mustache") {
            guard let data = try? Data(contentsOf: page.deletingLastPathComponent().appendingPathComponent(name))
            else { preconditionFailure("cannot read the template \(name)") }
            templates[String(name.dropLast(".mustache".count))] = String(decoding: data, as: UTF8.self)
        }
        return templates
    }()

    /// ``templates`` parsed, each registered under its name (the partials `{{>form}}` and so on).
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in templates {
            do {
                try library.register(text, named: name)
            } catch {
                preconditionFailure("the template \(name) does not parse: \(error)")
            }
        }
        return library
    }()

    /// A renderer (it holds nothing: the templates are loaded once for all).
    init() {}

    /// The HTML document of `page`, in the frame's strings of `strings`.
    ///
    /// - Parameter themeStylesheetPath: Where the controller serves ``themeStylesheet(_:)`` of the
    ///   page's theme (``themeStylesheetPath(_:)``); linked after the built-in stylesheet when it is
    ///   a local path. Nil links none: the default colour applies.
    func render(_ page: HostedPage, strings: HostedStrings, themeStylesheetPath: String? = nil) -> String {
        let view = HostedPageView(page: page, strings: strings, themeStylesheetPath: themeStylesheetPath)
        guard let html = Self.library.render(view, withTemplate: "page") else {
            preconditionFailure("the page template is missing")
        }
        return html
    }

    /// The stylesheet of `theme`'s primary colour: `:root{--kw-primary:#rrggbb;…}`, the default
    /// colour when the theme's is missing or not `#rrggbb`. See ``HostedThemeStylesheet``.
    static func themeStylesheet(_ theme: HostedTheme) -> String {
        HostedThemeStylesheet.css(theme)
    }

    /// The path to serve ``themeStylesheet(_:)`` of `theme` from: `/login/assets/theme/<hash>.css`,
    /// the hash being of the stylesheet (a long cache is safe); nil when the theme has no valid colour.
    static func themeStylesheetPath(_ theme: HostedTheme) -> String? {
        HostedThemeStylesheet.path(theme)
    }
}
