import Foundation
import Testing

@testable import KeywayServer

/// The project's look on the hosted pages: name, logo, stylesheets, colour.
@Suite struct HostedPageThemeTests {
    /// The start tags of `page` rendered with `theme`.
    func check(_ theme: HostedTheme, themeStylesheetPath: String? = nil) -> HTMLCheck {
        var page = HostedPageSamples.signIn
        page.theme = theme
        return HTMLCheck(
            HostedPageRenderer().render(page, strings: .english, themeStylesheetPath: themeStylesheetPath))
    }

    @Test func nameAndLogo() throws {
        let plain = check(HostedTheme(name: "Acme Notes"))
        #expect(plain.tags("img").isEmpty)
        #expect(plain.html.contains("<span class=\"kw-brand-name\">Acme Notes</span>"))
        // Without a logo, the name's first letter as a mark (hidden from screen readers: the name
        // follows).
        #expect(plain.html.contains("<span class=\"kw-mark\" aria-hidden=\"true\">A</span>"))
        #expect(check(HostedTheme(name: "«»")).html.contains("kw-mark\"") == false)
        let logo = check(HostedTheme(name: "Acme Notes", logoURL: "https://cdn.example.com/logo.svg"))
        #expect(!logo.html.contains("class=\"kw-mark\""))
        let image = try #require(logo.tags("img").first)
        #expect(image.attributes["src"] == "https://cdn.example.com/logo.svg")
        #expect(image.attributes["alt"] == "Acme Notes")
        #expect(logo.html.contains("<span class=\"kw-brand-name\" aria-hidden=\"true\">Acme Notes</span>"))
        for url in ["http://cdn.example.com/logo.svg", "javascript:alert(1)", "data:image/png;base64,AAAA", "//cdn.example.com/x", "https://"] {
            #expect(check(HostedTheme(name: "Acme", logoURL: url)).tags("img").isEmpty, "\(url)")
        }
    }

    @Test func stylesheets() {
        let base = HostedPageRenderer.stylesheetHref
        #expect(base.hasPrefix("/login/assets/keyway.css?v="))
        let plain = check(HostedTheme(name: "Acme"))
        #expect(plain.tags("link").compactMap { $0.attributes["href"] } == [base])
        #expect(plain.tags("link").allSatisfy { $0.attributes["rel"] == "stylesheet" })
        let themed = check(
            HostedTheme(name: "Acme", stylesheetURL: "https://cdn.example.com/acme.css"),
            themeStylesheetPath: "/login/assets/theme/0123abcd.css")
        #expect(
            themed.tags("link").compactMap { $0.attributes["href"] } == [
                base, "/login/assets/theme/0123abcd.css", "https://cdn.example.com/acme.css",
            ])
        for url in ["http://cdn.example.com/acme.css", "javascript:x", "/local.css", "https://cdn.example.com/a b.css"] {
            #expect(check(HostedTheme(name: "Acme", stylesheetURL: url)).tags("link").count == 1, "\(url)")
        }
        #expect(check(HostedTheme(name: "Acme"), themeStylesheetPath: "https://elsewhere.example/x.css").tags("link").count == 1)
    }

    @Test func colourStylesheet() throws {
        let css = HostedPageRenderer.themeStylesheet(HostedTheme(name: "Acme", primaryColor: "#336699"))
        #expect(css.hasPrefix(":root{--kw-primary:#336699;--kw-on-primary:#ffffff;--kw-accent:#336699}"))
        #expect(css.contains("@media (prefers-color-scheme: dark){:root{--kw-accent:#"))
        #expect(HostedPageRenderer.themeStylesheet(HostedTheme(name: "Acme", primaryColor: "#AABBCC")).contains("--kw-primary:#aabbcc;"))
        for bad in [nil, "red", "#fff", "#12345g", "336699", "#336699;}body{display:none", "#3366990"] {
            let css = HostedPageRenderer.themeStylesheet(HostedTheme(name: "Acme", primaryColor: bad))
            #expect(css.hasPrefix(":root{--kw-primary:#2f5bea;"), "\(bad ?? "nil")")
            #expect(HostedPageRenderer.themeStylesheetPath(HostedTheme(name: "Acme", primaryColor: bad)) == nil)
        }
        let path = try #require(HostedPageRenderer.themeStylesheetPath(HostedTheme(name: "Acme", primaryColor: "#336699")))
        #expect(path.hasPrefix("/login/assets/theme/") && path.hasSuffix(".css"))
        #expect(path != HostedPageRenderer.themeStylesheetPath(HostedTheme(name: "Acme", primaryColor: "#336698")))
    }

    @Test("the colours stay readable", arguments: ["#336699", "#ffdd00", "#f0f0f0", "#000000", "#0f766e", "#ff4f00", "#7c3aed"])
    func contrast(color: String) throws {
        let css = HostedThemeStylesheet.css(HostedTheme(name: "Acme", primaryColor: color))
        func value(_ name: String, in text: Substring) throws -> HostedColor {
            let start = try #require(text.range(of: "--kw-\(name):"))
            return HostedColor(hex: String(text[start.upperBound...].prefix(7)))
        }
        let light = css.prefix { $0 != "\n" }
        let dark = css.drop { $0 != "\n" }
        let primary = HostedColor(hex: color)
        #expect(try value("on-primary", in: light).contrast(with: primary) >= 4.5)
        #expect(try value("accent", in: light).contrast(with: .white) >= 4.5)
        #expect(try value("accent", in: dark).contrast(with: HostedColor(hex: HostedThemeStylesheet.darkCard)) >= 4.5)
        #expect(HostedColor(hex: "#ffdd00").contrast(with: .black) > 10)
    }

    @Test func builtInStylesheet() {
        let css = HostedPageRenderer.stylesheet
        #expect(css.contains("--kw-primary: #2f5bea;"))
        #expect(css.contains("--kw-card: #ffffff;") && css.contains("--kw-card: #1a1d23;"), "the cards the accent is computed against")
        #expect(css.contains(":focus-visible"))
        #expect(css.contains("prefers-color-scheme: dark"))
        #expect(!css.contains("@import") && !css.contains("url("), "nothing loaded from elsewhere")
    }
}

/// The strings of the frame.
@Suite struct HostedPageChromeTests {
    @Test func everyChromeKeyTheTemplatesUseExists() throws {
        let pattern = try NSRegularExpression(pattern: #"\{\{\s*chrome\.([A-Za-z0-9_]+)\s*\}\}"#)
        var used: Set<String> = []
        for (_, text) in HostedPageRenderer.templates {
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                if let name = Range(match.range(at: 1), in: text) { used.insert("chrome." + text[name]) }
            }
        }
        #expect(used.count >= 8)
        for key in used.sorted() {
            #expect(HostedStrings.english.has(key), "\(key) is missing from chrome.json")
        }
        // And chrome.json holds nothing the templates do not use.
        let chrome = Set(HostedStrings.english.keys.filter { $0.hasPrefix("chrome.") })
        #expect(chrome == used)
    }
}
